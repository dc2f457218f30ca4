import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from './embedders/hash';
import {
	aggregateItems,
	scoreCases,
	scoreSubmission,
	SCORER_VERSION,
	ScoringInputError
} from './index';

const embedder = createHashEmbedder(64);
const ngram = () => ({ bleu: 0.2, rouge: 0.4, meteor: 0.6 });
const src = (id: string) => ({ isbn: 'x', page: 0, paragraph_id: id });
const tf = (id: string, answer: string) => ({
	question: `tf ${id}`,
	answer,
	type: 'true_false',
	source: src(id)
});
const list = (id: string, answer: string[]) => ({
	question: `list ${id}`,
	type: 'list',
	options: ['Heparin', 'Warfarin', 'Aspirin', 'Clopidogrel'],
	answer,
	source: src(id)
});

describe('scoreSubmission', () => {
	it('averages seven headline numbers, a missing type counting 0, and names mode/embedder/version', async () => {
		const res = await scoreSubmission({
			embedder,
			ngram,
			submission: {
				true_false: { inputs: [tf('p1', 'True'), tf('p2', 'False')], responses: ['True', 'True'] }
			}
		});
		expect(res.perType.true_false.accuracy).toBe(0.5);
		expect(res.leaderboard.overall).toBeCloseTo(0.5 / 7, 12);
		expect(res.meta).toMatchObject({
			mode: 'official',
			embedder: 'hash:64',
			scorerVersion: SCORER_VERSION,
			baseline: 0.3,
			idfCorpusSize: 2
		});
		expect(res.present.multiple_choice).toBe(false);
		expect(res.overall.multiple_choice_accuracy).toBe(0);
		expect(res.meta.warnings.some((w) => w.includes('multiple_choice'))).toBe(true);
	});
	it('scores a whole type 0 when inputs and responses differ in length', async () => {
		const res = await scoreSubmission({
			embedder,
			ngram,
			submission: { true_false: { inputs: [tf('p1', 'True')], responses: [] } }
		});
		expect(res.items).toHaveLength(0);
		expect(res.perType.true_false.accuracy).toBe(0);
	});
	it('official list F1 is label-macro over paragraph_id-keyed results; corrected is the per-question mean', async () => {
		const inputs = [list('p1', ['Warfarin', 'Aspirin', 'Heparin']), list('p2', ['Warfarin'])];
		const submission = { list: { inputs, responses: ['Warfarin, Aspirin, Heparin', ''] } };
		const off = await scoreSubmission({ embedder, ngram, submission });
		expect(off.leaderboard.listF1).toBeCloseTo(8 / 9, 12);
		const cor = await scoreSubmission({ embedder, ngram, submission, mode: 'corrected' });
		expect(cor.leaderboard.listF1).toBe(0.5);
		expect(cor.overall.list_macro_f1_score).toBe(0.5);
		// Same paragraph_id twice: official keeps only the last for label metrics.
		const dup = {
			list: {
				inputs: [list('p1', ['Warfarin']), list('p1', ['Aspirin'])],
				responses: ['Warfarin', 'Heparin']
			}
		};
		expect((await scoreSubmission({ embedder, ngram, submission: dup })).leaderboard.listF1).toBe(
			0
		);
		expect(
			(await scoreSubmission({ embedder, ngram, submission: dup, mode: 'corrected' })).leaderboard
				.listF1
		).toBe(0.5);
	});
	it('takes gold from qaRecords and rejects inputs missing from them', async () => {
		const qa = [tf('p1', 'False')];
		const tampered = { true_false: { inputs: [tf('p1', 'True')], responses: ['True'] } };
		const res = await scoreSubmission({ embedder, ngram, submission: tampered, qaRecords: qa });
		expect(res.perType.true_false.accuracy).toBe(0);
		const unknown = { true_false: { inputs: [tf('zz', 'True')], responses: ['True'] } };
		await expect(
			scoreSubmission({ embedder, ngram, submission: unknown, qaRecords: qa })
		).rejects.toThrow(ScoringInputError);
	});
});

describe('scoreCases', () => {
	it('scores by item id with IDF/baseline from the QA records', async () => {
		const qa = [
			tf('p1', 'True'),
			{ question: 's', type: 'short_answer', answer: 'insulin', source: src('s1') }
		];
		const res = await scoreCases(
			[
				{
					id: 'a',
					type: 'true_false',
					item: qa[0],
					response: [{ generated_text: '<think>hm</think>True' }]
				},
				{ id: 'b', type: 'short_answer', item: qa[1], response: 'Insulin' }
			],
			{ qaRecords: qa, embedder, ngram }
		);
		expect(res.meta.idfCorpusSize).toBe(2);
		expect(res.items.map((i) => i.id)).toEqual(['a', 'b']);
		expect(res.items[0].score).toMatchObject({ type: 'true_false', correct: true });
		expect(res.items[1].score).toMatchObject({ type: 'short_answer', semantic: 1, bleu: 0.2 });
	});
});

describe('progress and aggregation for callers that store their own items', () => {
	it('reports every progressEvery items, awaiting the callback before going on', async () => {
		const cases = Array.from({ length: 7 }, (_, i) => ({
			id: `c${i}`,
			type: 'true_false' as const,
			item: tf(`p${i}`, 'True'),
			response: 'True'
		}));
		const seen: number[] = [];
		let pending = false;
		await scoreCases(cases, {
			qaRecords: cases.map((c) => c.item),
			embedder,
			ngram,
			progressEvery: 3,
			onProgress: async ({ done }) => {
				expect(pending).toBe(false);
				pending = true;
				await new Promise((resolve) => setTimeout(resolve, 5));
				seen.push(done);
				pending = false;
			}
		});
		expect(seen).toEqual([3, 6, 7]);
	});

	it('aggregateItems gives the same per-type metrics and row as scoreSubmission', async () => {
		const submission = {
			true_false: { inputs: [tf('p1', 'True'), tf('p2', 'False')], responses: ['True', 'True'] },
			list: { inputs: [list('p3', ['Heparin', 'Aspirin'])], responses: ['Heparin, Warfarin'] }
		};
		const res = await scoreSubmission({ embedder, ngram, submission, mode: 'corrected' });
		const agg = aggregateItems(res.items, 'corrected');
		expect(agg.leaderboard).toEqual(res.leaderboard);
		expect(agg.perType).toEqual(res.perType);
		expect(agg.leaderboard.tfAcc).toBe(0.5);
	});
});
