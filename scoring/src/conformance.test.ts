import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from './embedders/hash';
import { scoreSubmission, type SubmissionFile, type TaskType } from './index';
import { findSampleDir } from './testing/sample-dir';
import { skippedTitle } from './testing/skip';
import type { QaRecord } from './types';

/* The ClinIQLink sample is licensed for format validation only, so it is read from outside the
 * repository at test time and never copied here (docs/conformance.md). */
const { dir: SAMPLE, reason } = findSampleDir();
const present = SAMPLE !== null;
if (!present) console.warn(`conformance tests skipped: ${reason}`);

function load(): Record<TaskType, QaRecord[]> {
	const by = {} as Record<TaskType, QaRecord[]>;
	const dir = SAMPLE as string;
	for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
		for (const r of JSON.parse(readFileSync(join(dir, f), 'utf8')) as QaRecord[]) {
			const t = r.type as TaskType;
			(by[t] ??= []).push(r);
		}
	}
	return by;
}

/** A submission whose responses are the gold answers, in the format the prompts ask for. */
function goldSubmission(
	by: Record<TaskType, QaRecord[]>
): Partial<Record<TaskType, SubmissionFile>> {
	const gold: Record<TaskType, (r: QaRecord) => string> = {
		true_false: (r) => String(r.answer),
		multiple_choice: (r) => String(r.correct_answer),
		list: (r) => (r.answer as string[]).join(', '),
		short_answer: (r) => String(r.answer),
		multi_hop: (r) => String(r.answer),
		short_inverse: (r) => String(r.incorrect_explanation),
		multi_hop_inverse: (r) => {
			const [step, expl] = r.incorrect_reasoning_step as string[];
			const n = /Step (\d+)/.exec(step)?.[1];
			return `Incorrect Reasoning Step: ${n}\nIncorrect Reasoning Explanation: ${expl.slice(expl.indexOf(':') + 1).trim()}`;
		}
	};
	const out: Partial<Record<TaskType, SubmissionFile>> = {};
	for (const [t, recs] of Object.entries(by) as [TaskType, QaRecord[]][]) {
		out[t] = { inputs: recs, responses: recs.map(gold[t]) };
	}
	return out;
}

describe.skipIf(!present)(
	skippedTitle('conformance on the ClinIQLink sample', present ? null : reason),
	() => {
		const embedder = createHashEmbedder(384);
		const ngram = () => ({ bleu: 1, rouge: 1, meteor: 1 });

		it('has all seven types in the sample', () => {
			expect(Object.keys(load()).sort()).toEqual(
				[
					'list',
					'multi_hop',
					'multi_hop_inverse',
					'multiple_choice',
					'short_answer',
					'short_inverse',
					'true_false'
				].sort()
			);
		});

		it('gold answers as responses score perfectly on closed-ended types in both modes', async () => {
			const by = load();
			const qaRecords = Object.values(by).flat();
			for (const mode of ['official', 'corrected'] as const) {
				const res = await scoreSubmission({
					submission: goldSubmission(by),
					qaRecords,
					embedder,
					ngram,
					mode
				});
				expect(res.leaderboard.tfAcc).toBe(1);
				expect(res.leaderboard.mcAcc).toBe(1);
				expect(res.leaderboard.listF1).toBe(1);
				expect(res.perType.list.list_invalid_count).toBe(0);
				expect(res.leaderboard.short).toBe(1);
				expect(res.leaderboard.shortInverse).toBe(1);
				expect(res.leaderboard.multiHop).toBe(1);
				expect(res.perType.multi_hop_inverse.step_identification_rate).toBe(1);
			}
		});

		it('official reproduces the explanation-in-step-line quirk on multi_hop_inverse; corrected does not', async () => {
			const by = load();
			const qaRecords = Object.values(by).flat();
			const off = await scoreSubmission({
				submission: goldSubmission(by),
				qaRecords,
				embedder,
				ngram
			});
			const cor = await scoreSubmission({
				submission: goldSubmission(by),
				qaRecords,
				embedder,
				ngram,
				mode: 'corrected'
			});
			expect(off.leaderboard.multiHopInverse).toBeLessThan(1);
			expect(cor.leaderboard.multiHopInverse).toBe(1);
			// IDF corpus: official = answer fields (MC adds none); corrected = the compared gold texts.
			expect(off.meta.idfCorpusSize).toBe(qaRecords.length - by.multiple_choice.length);
			expect(cor.meta.idfCorpusSize).toBe(
				by.short_answer.length +
					by.multi_hop.length +
					by.short_inverse.length +
					by.multi_hop_inverse.length
			);
		});

		it('letter answers score 0 officially on MC and 1 in corrected mode', async () => {
			const by = load();
			const letters = by.multiple_choice.map((r) =>
				String.fromCharCode(65 + (r.options as string[]).indexOf(String(r.correct_answer)))
			);
			const submission = { multiple_choice: { inputs: by.multiple_choice, responses: letters } };
			const off = await scoreSubmission({ submission, embedder, ngram });
			const cor = await scoreSubmission({ submission, embedder, ngram, mode: 'corrected' });
			expect(off.leaderboard.mcAcc).toBe(0);
			expect(off.perType.multiple_choice.multiple_choice_letter_match).toBe(1);
			expect(cor.leaderboard.mcAcc).toBe(1);
		});
	}
);
