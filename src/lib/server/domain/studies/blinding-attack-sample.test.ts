import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSampleDir } from '$scoring/testing/sample-dir';
import { skippedTitle } from '$scoring/testing/skip';
import { qaRecordSchemas, type QaRecord } from '../../../schemas/qa-record';
import { GENERATED_MODELS, generateOutputs } from '../../fixtures/submission-generator';
import { typedFields } from '../items/fields';
import {
	attackByType,
	REFERENCE_SOURCE,
	type AuditQuestion,
	type TypeAttack
} from './blinding-audit';
import { presentCandidates } from './presentation';
import { QA_TYPES, type DetailChoice } from '../../../constants';

// The public ClinIQLink sample may be read for format validation only; it is never copied here
// (docs/conformance.md). Model outputs come from the fixture generator (seven habits).
const { dir: SAMPLE_DIR, reason } = findSampleDir();
const present = SAMPLE_DIR !== null;
if (!present) console.warn(`Skipping the ClinIQLink blinding attack check: ${reason}`);

const pct = (x: number) => `${Math.round(100 * x)}`;
function table(title: string, attacks: TypeAttack[]): string {
	const lines = [title];
	for (const scope of attacks) {
		const ref = scope.sources.find((s) => s.source === REFERENCE_SOURCE)!;
		const models = scope.sources
			.filter((s) => s.source !== REFERENCE_SOURCE)
			.map((s) => `${s.source} L${+s.longest.hits.toFixed(1)} C${+s.classifier.hits.toFixed(1)}`)
			.join(', ');
		lines.push(
			`${scope.type} (n=${scope.questions}, chance ${pct(ref.longest.chance)} %): reference longest ${+ref.longest.hits.toFixed(1)}/${ref.longest.n} [${pct(ref.longest.low)}–${pct(ref.longest.high)}]${ref.longest.aboveChance ? ' ABOVE' : ''}, top two ${+ref.topTwo.hits.toFixed(1)}${ref.topTwo.aboveChance ? ' ABOVE' : ''}, classifier ${+ref.classifier.hits.toFixed(1)}/${ref.classifier.n} [${pct(ref.classifier.low)}–${pct(ref.classifier.high)}]${ref.classifier.aboveChance ? ' ABOVE' : ''} | ${models}`
		);
	}
	return lines.join('\n');
}

describe.skipIf(!present)(
	skippedTitle(
		'a determined reader on the ClinIQLink sample with seven models',
		present ? null : reason
	),
	() => {
		const records: QaRecord[] = present
			? readdirSync(SAMPLE_DIR)
					.filter((f) => f.endsWith('.json'))
					.flatMap(
						(f) => JSON.parse(readFileSync(join(SAMPLE_DIR, f), 'utf8')) as { type: string }[]
					)
					.map((r) => qaRecordSchemas[r.type as QaRecord['type']].parse(r) as QaRecord)
			: [];

		/** The questions as raw texts, or presented with every type's default or with one choice. */
		function questions(how: 'raw' | 'default' | DetailChoice): AuditQuestion[] {
			return records.map((record, i) => {
				const f = typedFields(record);
				const outputs = generateOutputs(record);
				const raw = [
					{ text: f.answer ?? '', isReference: true, model: null },
					...GENERATED_MODELS.map((m) => ({ text: outputs[m], isReference: false, model: m }))
				];
				const item = { type: record.type, options: f.options, reasoning: f.reasoning };
				const texts =
					how === 'raw'
						? raw.map((r) => r.text)
						: presentCandidates(item, raw, how === 'default' ? undefined : how);
				return {
					id: i + 1,
					label: record.question,
					type: record.type,
					candidates: raw.map((r, j) => ({ ...r, text: texts[j] }))
				};
			});
		}
		const reference = (scope: TypeAttack) =>
			scope.sources.find((s) => s.source === REFERENCE_SOURCE)!;

		it('the raw texts give the reference away to the classifier on several types', () => {
			const attacks = attackByType(questions('raw'));
			console.info(table('ClinIQLink sample, raw texts', attacks));
			expect(records.length).toBe(35);
			const found = attacks.filter((a) => a.type !== 'all' && reference(a).classifier.aboveChance);
			expect(found.length).toBeGreaterThanOrEqual(3);
		});

		it('reasoning shown for every multi-hop candidate makes the reference the longest answer', () => {
			const attacks = attackByType(questions('with_detail'));
			console.info(table('ClinIQLink sample, every part shown', attacks));
			const multiHop = reference(attacks.find((a) => a.type === 'multi_hop')!);
			expect(multiHop.longest.hits).toBe(5);
			expect(multiHop.longest.aboveChance).toBe(true);
		});

		it('the default presentation leaves no type where the reference is picked above chance', () => {
			const shown = questions('default');
			const attacks = attackByType(shown);
			console.info(table('ClinIQLink sample, default presentation', attacks));
			expect(attacks.map((a) => a.type)).toEqual([...QA_TYPES, 'all']);
			for (const scope of attacks) {
				expect(reference(scope).longest.aboveChance, `${scope.type}: longest`).toBe(false);
				expect(reference(scope).classifier.aboveChance, `${scope.type}: classifier`).toBe(false);
			}
			// Nothing only some candidates get: no placeholder, no markup, no think block.
			for (const q of shown)
				for (const c of q.candidates)
					expect(c.text).not.toMatch(/none given|\*\*|<\/?think>|`|^#/m);
		});
	}
);
