import { describe, expect, it } from 'vitest';
import {
	assertionAt,
	firstOpen,
	markAssertion,
	moveCursor,
	selectedSpan,
	sentenceGap,
	sentenceStatus,
	setInterpretable,
	stepOf,
	toggledEvidence,
	withRelation,
	type AssertionState,
	type ScreenSentence
} from './steps';

const sentence: ScreenSentence = {
	position: 1,
	text: 'Aspirin lowers the risk of stroke in adults.',
	words: ['Aspirin', 'lowers', 'the', 'risk', 'of', 'stroke', 'in', 'adults.'],
	citations: [
		{ pmid: '11', available: true },
		{ pmid: '22', available: false },
		{ pmid: '33', available: true }
	]
};
const assertion = (over: Partial<AssertionState> = {}): AssertionState => ({
	start: 0,
	end: 3,
	relevance: 'required',
	relations: [
		{ pmid: '11', relation: 'supports', evidence: [2] },
		{ pmid: '33', relation: 'neutral', evidence: [] }
	],
	...over
});

describe('sentence status and gaps', () => {
	it('is not started until interpretability is said, and done when nothing is missing', () => {
		expect(sentenceStatus(sentence, undefined, 'assertion')).toBe('todo');
		expect(sentenceStatus(sentence, { interpretable: false, assertions: [] }, 'assertion')).toBe(
			'done'
		);
		const s = { interpretable: true, assertions: [assertion()] };
		expect(sentenceStatus(sentence, s, 'assertion')).toBe('done');
		expect(sentenceGap(sentence, s, 'assertion')).toBeNull();
	});

	it('names the first thing an assertion lacks; a missing document needs no relation', () => {
		const gap = (a: AssertionState) =>
			sentenceGap(sentence, { interpretable: true, assertions: [a] }, 'assertion');
		expect(gap(assertion({ relations: [] }))).toBe('Assertion 1 needs a relation to PMID 11.');
		expect(
			gap(assertion({ relations: [{ pmid: '11', relation: 'contradicts', evidence: [] }] }))
		).toBe('Assertion 1 needs evidence sentences of PMID 11.');
		expect(gap(assertion({ relevance: null }))).toBe('Assertion 1 needs its relevance.');
		expect(sentenceStatus(sentence, { interpretable: true, assertions: [] }, 'assertion')).toBe(
			'progress'
		);
	});

	it('a per-sentence "yes" makes the one assertion over the whole sentence', () => {
		const s = setInterpretable({ interpretable: null, assertions: [] }, true, 8, 'sentence');
		expect(s.assertions).toEqual([{ start: 0, end: 8, relevance: null, relations: [] }]);
		expect(setInterpretable(s, true, 8, 'sentence').assertions).toHaveLength(1);
		expect(setInterpretable({ interpretable: null, assertions: [] }, true, 8, 'assertion')).toEqual(
			{ interpretable: true, assertions: [] }
		);
	});

	it('an uninterpretable sentence posts no assertions (they stay on screen)', () => {
		const step = stepOf(3, { interpretable: false, assertions: [assertion()] });
		expect(step).toEqual({ position: 3, interpretable: false, assertions: [] });
	});

	it('opens on the first sentence not done', () => {
		const two = [sentence, { ...sentence, position: 2 }];
		expect(firstOpen(two, { 1: { interpretable: false, assertions: [] } }, 'assertion')).toBe(1);
		expect(firstOpen(two, {}, 'assertion')).toBe(0);
	});
});

describe('marking spans with the word cursor', () => {
	it('moves within the sentence and extends with Shift', () => {
		let c = { cursor: 0, anchor: 0 };
		c = moveCursor(c, -1, 8, false);
		expect(c).toEqual({ cursor: 0, anchor: 0 });
		c = moveCursor(c, 1, 8, false);
		c = moveCursor(c, 1, 8, true);
		c = moveCursor(c, 1, 8, true);
		expect(selectedSpan(c)).toEqual({ start: 1, end: 4 });
		c = moveCursor({ cursor: 7, anchor: 7 }, 1, 8, false);
		expect(c.cursor).toBe(7);
		// Extending backwards selects from the cursor to the anchor.
		expect(selectedSpan(moveCursor({ cursor: 5, anchor: 5 }, -2, 8, true))).toEqual({
			start: 3,
			end: 6
		});
	});

	it('keeps assertions in reading order and refuses an overlap', () => {
		const first = markAssertion([], { start: 4, end: 6 });
		if ('refused' in first) throw new Error(first.refused);
		const second = markAssertion(first.assertions, { start: 0, end: 2 });
		if ('refused' in second) throw new Error(second.refused);
		expect(second.index).toBe(0);
		expect(second.assertions.map((a) => [a.start, a.end])).toEqual([
			[0, 2],
			[4, 6]
		]);
		expect(markAssertion(second.assertions, { start: 1, end: 5 })).toHaveProperty('refused');
		expect(assertionAt(second.assertions, 5)).toBe(1);
		expect(assertionAt(second.assertions, 3)).toBe(-1);
	});
});

describe('relations and evidence', () => {
	it('keeps the evidence when the relation changes, and toggles evidence in order', () => {
		let a = withRelation(assertion(), '11', 'partially_supports');
		expect(a.relations.find((r) => r.pmid === '11')).toEqual({
			pmid: '11',
			relation: 'partially_supports',
			evidence: [2]
		});
		a = toggledEvidence(a, '11', 1)!;
		expect(a.relations.find((r) => r.pmid === '11')?.evidence).toEqual([1, 2]);
		a = toggledEvidence(a, '11', 2)!;
		expect(a.relations.find((r) => r.pmid === '11')?.evidence).toEqual([1]);
	});

	it('needs a relation before evidence', () => {
		expect(toggledEvidence(assertion({ relations: [] }), '11', 1)).toBeNull();
	});
});
