import { describe, expect, it } from 'vitest';
import { attackBlinding, pickRate, wilson, type AttackQuestion } from './blinding-attack';

describe('wilson', () => {
	// Newcombe (1998), Statistics in Medicine 17:857–872, table I, method 3 (Wilson score).
	it.each([
		[81, 263, 0.2553, 0.3662],
		[15, 148, 0.0624, 0.1605],
		[0, 20, 0, 0.1611],
		[1, 29, 0.0061, 0.1718]
	])('%i of %i gives [%f, %f]', (x, n, low, high) => {
		const i = wilson(x, n);
		expect(i.low).toBeCloseTo(low, 4);
		expect(i.high).toBeCloseTo(high, 4);
	});
	it('0 of 10 has the closed-form upper bound z²/(n + z²)', () => {
		const z2 = 1.959963984540054 ** 2;
		expect(wilson(0, 10).high).toBeCloseTo(z2 / (10 + z2), 10);
	});
	it('says above chance only when the lower bound clears chance', () => {
		// 5 of 5 against 1/8: [0.566, 1]; 2 of 5: [0.118, 0.769].
		expect(pickRate(5, 5, 5 / 8).aboveChance).toBe(true);
		expect(pickRate(2, 5, 5 / 8).aboveChance).toBe(false);
		expect(pickRate(3, 5, 5 / 8).aboveChance).toBe(true);
		expect(pickRate(0, 0, 0)).toMatchObject({ n: 0, aboveChance: false });
	});
});

/** A deterministic stream of numbers in [0, 1) (a linear congruential generator). */
function stream(seed: number) {
	let s = seed >>> 0;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

const WORDS = ['the', 'patient', 'renal', 'dose', 'acute', 'therapy', 'because', 'risk', 'level'];

/** A sentence-like text of random length, drawn from the same distribution for every source. */
function text(next: () => number): string {
	const n = 3 + Math.floor(next() * 25);
	const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]);
	if (next() < 0.3) words[Math.floor(next() * n)] += ',';
	const body = words.join(' ');
	return next() < 0.5 ? `${body.charAt(0).toUpperCase()}${body.slice(1)}.` : body;
}

function questions(count: number, seed: number, plant?: (t: string) => string): AttackQuestion[] {
	const next = stream(seed);
	return Array.from({ length: count }, () => ({
		candidates: ['reference', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map((source) => {
			const t = text(next);
			return { source, text: source === 'reference' && plant ? plant(t) : t };
		})
	}));
}

describe('attackBlinding', () => {
	it('finds nothing above chance when every source writes alike', () => {
		const result = attackBlinding(questions(160, 7));
		for (const r of result) {
			expect(r.classifier.aboveChance, r.source).toBe(false);
			expect(r.longest.aboveChance, r.source).toBe(false);
			expect(r.classifier.chance).toBeCloseTo(1 / 8, 12);
			expect(r.topTwo.chance).toBeCloseTo(2 / 8, 12);
			expect(r.classifier.n).toBe(160);
		}
		// Every question's "longest" pick goes to one source or is split: the hits sum to n.
		const sum = result.reduce((s, r) => s + r.longest.hits, 0);
		expect(sum).toBeCloseTo(160, 9);
	});

	it('finds a planted tell that is not length: a semicolon only the reference writes', () => {
		const plain = attackBlinding(questions(40, 11)).find((r) => r.source === 'reference')!;
		const planted = attackBlinding(questions(40, 11, (t) => t.replace(' ', '; '))).find(
			(r) => r.source === 'reference'
		)!;
		expect(plain.classifier.aboveChance).toBe(false);
		expect(planted.classifier.aboveChance).toBe(true);
		expect(planted.classifier.rate).toBeGreaterThan(0.6);
		// The planted tell adds one character: "pick the longest" barely moves.
		expect(planted.longest.aboveChance).toBe(false);
	});

	it('finds a reference that is always the longest, by both attacks', () => {
		const result = attackBlinding(questions(30, 3, (t) => `${t} `.repeat(60).slice(0, 400))).find(
			(r) => r.source === 'reference'
		)!;
		expect(result.longest.hits).toBe(30);
		expect(result.longest.aboveChance).toBe(true);
		expect(result.topTwo.rate).toBe(1);
		expect(result.classifier.aboveChance).toBe(true);
	});

	it('splits ties evenly instead of favouring the first candidate', () => {
		const same = Array.from({ length: 12 }, () => ({
			candidates: ['reference', 'a', 'b', 'c'].map((source) => ({ source, text: 'Same text.' }))
		}));
		for (const r of attackBlinding(same)) {
			expect(r.longest.hits).toBeCloseTo(3, 9);
			expect(r.topTwo.hits).toBeCloseTo(6, 9);
			expect(r.classifier.hits).toBeCloseTo(3, 9);
		}
	});

	it('uses 10 folds by question beyond 40 questions and gives the same result twice', () => {
		const qs = questions(60, 5, (t) => `${t}; see above`);
		const a = attackBlinding(qs);
		expect(attackBlinding(qs)).toEqual(a);
		expect(a.find((r) => r.source === 'reference')!.classifier.aboveChance).toBe(true);
	});
});

describe('attackBlinding on a large study', () => {
	it('counts every question for the longest answer and reads at most 200 for the classifier', () => {
		const qs = questions(450, 13, (t) => `${t} `.repeat(30).slice(0, 300));
		const ref = attackBlinding(qs).find((r) => r.source === 'reference')!;
		expect(ref.longest.n).toBe(450);
		expect(ref.classifier.n).toBe(200);
		expect(ref.classifier.aboveChance).toBe(true);
	});
});
