import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedders/types';
import { createHashEmbedder } from './embedders/hash';
import { buildIdf, computeBaseline, idfWeight, SemanticScorer } from './semantic';

/** Whitespace tokenizer and hand-picked 2-d vectors, so every layer can be computed by hand. */
function fake(vectors: Record<string, number[]>): Embedder & { calls: string[][] } {
	const calls: string[][] = [];
	return {
		name: 'fake',
		calls,
		tokenize: (t) => t.toLowerCase().split(/\s+/).filter(Boolean),
		encode: async (texts) => {
			calls.push(texts);
			return texts.map((t) => Float64Array.from(vectors[t] ?? [0, 0]));
		}
	};
}

const V = { insulin: [1, 0], dose: [0, 1], 'insulin dose': [1, 1], bad: [-1, -1] };

describe('IDF (docs/scoring-behaviour.md §7.1)', () => {
	it('idf = ln((N+1)/(df+1)) + 1 over token sets; unseen 1.0 officially, max weight corrected', () => {
		const idf = buildIdf(['insulin dose dose', 'insulin', 'x'], fake(V));
		expect(idf.n).toBe(3);
		expect(idf.df.get('dose')).toBe(1);
		expect(idfWeight(idf, 'insulin', 'official')).toBeCloseTo(Math.log(4 / 3) + 1, 12);
		expect(idfWeight(idf, 'dose', 'official')).toBeCloseTo(Math.log(2) + 1, 12);
		expect(idfWeight(idf, 'unseen', 'official')).toBe(1);
		expect(idfWeight(idf, 'unseen', 'corrected')).toBeCloseTo(Math.log(4) + 1, 12);
	});
});

describe('semantic score (docs/scoring-behaviour.md §7)', () => {
	const refs = ['insulin', 'dose', 'x'];
	it('combines the three layers, subtracts 0.25 (official)', async () => {
		const sem = await SemanticScorer.create(fake(V), 'official', refs);
		expect(sem.baseline).toBe(0.3);
		const r = await sem.score('The insulin dose', 'insulin');
		// W: P = 1, R = 0.5 (equal idf) -> 2/3; C = cos([1,1],[1,0]); G = (C-0.3)/0.7
		const C = Math.SQRT1_2;
		expect(r.token).toBeCloseTo(2 / 3, 12);
		expect(r.sentence).toBeCloseTo(C, 12);
		expect(r.paragraph).toBeCloseTo((C - 0.3) / 0.7, 12);
		expect(r.score).toBeCloseTo(0.4 * (2 / 3) + 0.4 * C + 0.2 * ((C - 0.3) / 0.7) - 0.25, 12);
	});
	it('corrected rescales (s-0.25)/0.75 instead of capping at 0.75', async () => {
		const sem = await SemanticScorer.create(fake(V), 'corrected', refs);
		const r = await sem.score('insulin dose', 'insulin');
		const C = Math.SQRT1_2;
		const s = 0.4 * (2 / 3) + 0.4 * C + 0.2 * ((C - 0.3) / 0.7);
		expect(r.score).toBeCloseTo((s - 0.25) / 0.75, 12);
	});
	it('clamps negative sums to 0 (sentence cosine may be negative)', async () => {
		const sem = await SemanticScorer.create(fake(V), 'official', refs);
		const r = await sem.score('insulin dose', 'bad');
		expect(r.sentence).toBeCloseTo(-1, 12);
		expect(r.score).toBe(0);
	});
	it('only the case-insensitive exact match reaches 1.0 officially; empty gold gives 1 officially, 0 corrected', async () => {
		const off = await SemanticScorer.create(fake(V), 'official', refs);
		expect((await off.score(' Insulin Dose ', 'insulin dose')).score).toBe(1);
		expect((await off.score('', '')).score).toBe(1);
		const max = await off.score('insulin dose', 'insulin dose.');
		expect(max.score).toBeLessThanOrEqual(0.75);
		const cor = await SemanticScorer.create(fake(V), 'corrected', refs);
		expect((await cor.score('', '')).score).toBe(0);
	});
	it('token layer is 0 when a side has no alphanumeric token; a failing encoder zeroes layers', async () => {
		const sem = await SemanticScorer.create(fake(V), 'official', refs);
		expect((await sem.score('insulin dose', '!!! ??')).token).toBe(0);
		const broken: Embedder = {
			name: 'broken',
			tokenize: (t) => t.split(' '),
			encode: async () => Promise.reject(new Error('x'))
		};
		const b = new SemanticScorer(broken, 'official', buildIdf([], broken), 0.3);
		expect(await b.score('a b', 'c d')).toMatchObject({
			token: 0,
			sentence: 0,
			paragraph: 0,
			score: 0
		});
	});
});

describe('baseline (docs/scoring-behaviour.md §7.2)', () => {
	const hash = createHashEmbedder(64);
	it('is 0.3 below 100 refs and deterministic (seeded) from 100 refs', async () => {
		const few = Array.from({ length: 99 }, (_, i) => `answer ${i}`);
		expect(await computeBaseline(few, hash, 'official')).toBe(0.3);
		const refs = Array.from({ length: 150 }, (_, i) => `answer number ${i * 7919}`);
		const a = await computeBaseline(refs, hash, 'official');
		expect(a).not.toBe(0.3);
		expect(await computeBaseline(refs, hash, 'official')).toBe(a);
		expect(await computeBaseline(refs, hash, 'official', 1)).not.toBe(a);
	});
	it('identical refs inflate the official baseline; corrected pairs only distinct texts', async () => {
		const refs = Array.from({ length: 120 }, (_, i) => (i % 2 ? 'True' : 'true'));
		expect(await computeBaseline(refs, hash, 'official')).toBeCloseTo(1, 12);
		expect(await computeBaseline(refs, hash, 'corrected')).toBe(0.3);
	});
	it('a baseline of 1 makes the paragraph layer 0 instead of dividing by zero', async () => {
		const sem = new SemanticScorer(fake(V), 'official', buildIdf([], fake(V)), 1);
		expect((await sem.score('insulin dose', 'insulin')).paragraph).toBe(0);
	});
});
