import { describe, expect, it } from 'vitest';
import { meanSpanF1, spanTokenF1 } from './spans';

describe('spanTokenF1', () => {
	it('compares the tokens each assessor covered, counted by hand', () => {
		// A covers tokens 0–3 (4), B covers 2–5 (4); shared 2, 3 → 2·2/(4+4) = 0.5.
		expect(spanTokenF1([{ start: 0, end: 4 }], [{ start: 2, end: 6 }])).toBe(0.5);
		// A: 0, 1 and 5, 6, 7 (overlapping spans count each token once: 5); B: 1–6 (6 tokens).
		// Shared 1, 5, 6 → 2·3/(5+6) = 6/11.
		expect(
			spanTokenF1(
				[
					{ start: 0, end: 2 },
					{ start: 5, end: 7 },
					{ start: 6, end: 8 }
				],
				[{ start: 1, end: 7 }]
			)
		).toBeCloseTo(6 / 11, 15);
		expect(spanTokenF1([{ start: 3, end: 5 }], [{ start: 3, end: 5 }])).toBe(1);
		expect(spanTokenF1([{ start: 0, end: 2 }], [{ start: 2, end: 4 }])).toBe(0);
		// One assessor marked nothing: no shared token, F1 0.
		expect(spanTokenF1([], [{ start: 0, end: 3 }])).toBe(0);
	});

	it('is null when neither marked a token, and refuses reversed or negative bounds', () => {
		expect(spanTokenF1([], [])).toBeNull();
		expect(spanTokenF1([{ start: 2, end: 2 }], [])).toBeNull();
		expect(() => spanTokenF1([{ start: 3, end: 1 }], [])).toThrow(RangeError);
		expect(() => spanTokenF1([], [{ start: -1, end: 1 }])).toThrow(RangeError);
	});

	it('handles spans covering billions of tokens without enumerating them', () => {
		expect(spanTokenF1([{ start: 0, end: 4e9 }], [{ start: 2e9, end: 4e9 }])).toBeCloseTo(
			2 / 3,
			12
		);
	});
});

describe('meanSpanF1', () => {
	it('averages the sentences where a span was marked', () => {
		// F1 0.5, 1, and a sentence with no span skipped → (0.5 + 1)/2.
		expect(
			meanSpanF1([
				{ a: [{ start: 0, end: 4 }], b: [{ start: 2, end: 6 }] },
				{ a: [{ start: 1, end: 2 }], b: [{ start: 1, end: 2 }] },
				{ a: [], b: [] }
			])
		).toEqual({ value: 0.75, n: 2 });
	});

	it('says why there is no mean', () => {
		expect(meanSpanF1([])).toMatchObject({
			value: null,
			n: 0,
			reason: expect.stringMatching(/no sentence/)
		});
		expect(meanSpanF1([{ a: [], b: [] }])).toMatchObject({
			value: null,
			reason: expect.stringMatching(/neither/)
		});
	});
});
