import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSampleDir } from '$scoring/testing/sample-dir';
import { skippedTitle } from '$scoring/testing/skip';
import { qaRecordSchemas, type QaRecord } from '../../../schemas/qa-record';
import { typedFields } from '../items/fields';
import { auditBlinding, type AuditQuestion, type Feature } from './blinding-audit';
import { presentCandidates } from './presentation';

// The public ClinIQLink sample may be read for format validation only; it is never copied here
// (docs/conformance.md). Its references go through the portal's own field derivation; the model
// outputs are synthesised from the same items in the submission format the prompts ask for.
const { dir: SAMPLE_DIR, reason } = findSampleDir();
const present = SAMPLE_DIR !== null;
if (!present) console.warn(`Skipping the ClinIQLink blinding check: ${reason}`);

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Three submission-format outputs per item: right, right with other habits, and wrong. */
function syntheticOutputs(record: QaRecord): string[] {
	const f = typedFields(record);
	switch (record.type) {
		case 'true_false': {
			const other = f.answer === 'True' ? 'False' : 'True';
			return [f.answer!, `${f.answer!.toLowerCase()}.`, other];
		}
		case 'multiple_choice': {
			const wrong = record.options.find((o) => o.trim() !== f.correctAnswer) ?? '';
			return [f.correctAnswer!, `${f.correctAnswer!.toLowerCase()}.`, wrong];
		}
		case 'list': {
			const items = f.answerList!;
			const extra = record.options.find((o) => !items.includes(o.trim())) ?? items[0];
			return [items.join(', '), [...items].reverse().join(', '), [items[0], extra].join(', ')];
		}
		case 'short_answer':
			return [
				`Final Answer: ${f.answer}`,
				`Final Answer: ${f.answer!.toLowerCase()}.`,
				`Final Answer: ${f.answer!.split(' ').slice(0, 3).join(' ')}`
			];
		case 'short_inverse':
			return [
				`Incorrect Explanation: ${cap(f.incorrectExplanation!)}`,
				`Incorrect Explanation: The given answer is wrong: ${f.incorrectExplanation}.`,
				`Incorrect Explanation: ${cap(record.question)}`
			];
		case 'multi_hop':
			return [
				`Final Answer: ${f.answer}\nReasoning: ${record.reasoning.join(' ')}`,
				`Final Answer: ${f.answer!.toLowerCase()}.\nReasoning: ${record.reasoning.join('\n')}`,
				`Final Answer: ${record.question}\nReasoning: ${record.reasoning.slice(1).join(' ')}`
			];
		case 'multi_hop_inverse': {
			const step = f.incorrectStep ?? 1;
			const explanation = f.incorrectStepExplanation ?? '';
			return [
				`Incorrect Reasoning Step: ${step}\nIncorrect Reasoning Explanation: ${cap(explanation)}`,
				`Incorrect Reasoning Step: Step ${step}\nIncorrect Reasoning Explanation: ${explanation}.`,
				`Incorrect Reasoning Step: ${step + 1}\nIncorrect Reasoning Explanation: ${record.reasoning[0]}`
			];
		}
	}
}

describe.skipIf(!present)(
	skippedTitle('blinding on the ClinIQLink sample (format validation)', present ? null : reason),
	() => {
		const records: QaRecord[] = present
			? readdirSync(SAMPLE_DIR)
					.filter((f) => f.endsWith('.json'))
					.flatMap(
						(f) => JSON.parse(readFileSync(join(SAMPLE_DIR, f), 'utf8')) as { type: string }[]
					)
					.map((r) => qaRecordSchemas[r.type as QaRecord['type']].parse(r) as QaRecord)
			: [];

		function questions(presented: boolean): AuditQuestion[] {
			return records.map((record, i) => {
				const f = typedFields(record);
				const raw = [
					{ text: f.answer ?? '', isReference: true, model: null },
					...syntheticOutputs(record).map((text, j) => ({
						text,
						isReference: false,
						model: `m${j}`
					}))
				];
				const texts = presented
					? presentCandidates(
							{ type: record.type, options: f.options, reasoning: f.reasoning },
							raw
						)
					: raw.map((r) => r.text);
				return {
					id: i + 1,
					label: record.question,
					type: record.type,
					candidates: raw.map((r, j) => ({ ...r, text: texts[j] }))
				};
			});
		}
		const surface: Feature[] = ['prefix', 'separator', 'firstLetter'];
		const bySurface = (flags: { features: Feature[] }[]) =>
			flags.filter((q) => q.features.some((f) => surface.includes(f)));

		it('raw texts give the reference away by prefix, separator or case', () => {
			const audit = auditBlinding(questions(false));
			expect(audit.withReference).toBe(records.length);
			console.info(
				`ClinIQLink sample, raw: reference identifiable by form in ${audit.byForm.length} of ` +
					`${records.length} questions, by prefix/separator/case in ${bySurface(audit.byForm).length}`
			);
			expect(bySurface(audit.byForm).length).toBeGreaterThan(records.length / 3);
		});

		it('presented texts leave no question where prefix, separator or case singles out the reference', () => {
			const audit = auditBlinding(questions(true));
			console.info(
				`ClinIQLink sample, presented: reference identifiable by form in ${audit.byForm.length} of ` +
					`${records.length} questions; by length in ${audit.byLength.length}`
			);
			expect(records.length).toBeGreaterThanOrEqual(35);
			expect(bySurface(audit.byForm)).toEqual([]);
			expect(audit.byForm).toEqual([]);
		});
	}
);
