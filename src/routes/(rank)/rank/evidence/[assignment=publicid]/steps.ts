// The evidence screen's rules, as pure functions over plain data: how far each sentence is, what
// it still lacks, the word cursor that marks assertion spans, and the edits of one sentence's
// state (assertions, relations, evidence, relevance). The components call these; each has a test.
import type { EvidenceMode, EvidenceRelation, EvidenceRelevance } from '$lib/constants';

/** One relation of an assertion to a cited document (as saved). */
export interface RelationState {
	pmid: string;
	relation: EvidenceRelation;
	evidence: number[];
}
/** One assertion: words start..end (exclusive) of its sentence. */
export interface AssertionState {
	start: number;
	end: number;
	relevance: EvidenceRelevance | null;
	relations: RelationState[];
}
export interface SentenceState {
	interpretable: boolean | null;
	assertions: AssertionState[];
}
export interface ScreenSentence {
	position: number;
	text: string;
	words: string[];
	citations: { pmid: string; available: boolean }[];
}
export type SentenceStatus = 'done' | 'progress' | 'todo';

export const blankSentence = (): SentenceState => ({ interpretable: null, assertions: [] });

/** A relation that needs at least one evidence sentence of its document. */
export const needsEvidence = (r: EvidenceRelation) =>
	r === 'supports' || r === 'partially_supports' || r === 'contradicts';

/** The cited documents an assertion must be judged against (those that were imported). */
export const judgedPmids = (s: ScreenSentence) =>
	s.citations.filter((c) => c.available).map((c) => c.pmid);

/** What one assertion still lacks, in words (null: complete). */
export function assertionGap(a: AssertionState, pmids: string[]): string | null {
	for (const pmid of pmids) {
		const r = a.relations.find((x) => x.pmid === pmid);
		if (!r) return `a relation to PMID ${pmid}`;
		if (needsEvidence(r.relation) && !r.evidence.length)
			return `evidence sentences of PMID ${pmid}`;
	}
	return a.relevance ? null : 'its relevance';
}

/** What a sentence still lacks before the answer can be finished, in words (null: nothing). */
export function sentenceGap(
	s: ScreenSentence,
	state: SentenceState | undefined,
	mode: EvidenceMode
): string | null {
	if (!state || state.interpretable === null) return 'Is it interpretable?';
	if (!state.interpretable) return null;
	if (!state.assertions.length)
		return mode === 'sentence' ? 'Its judgement.' : 'Mark its assertions.';
	const pmids = judgedPmids(s);
	for (const [i, a] of state.assertions.entries()) {
		const gap = assertionGap(a, pmids);
		if (gap) return `Assertion ${i + 1} needs ${gap}.`;
	}
	return null;
}

/** Done (nothing missing), in progress (something entered) or not started. */
export function sentenceStatus(
	s: ScreenSentence,
	state: SentenceState | undefined,
	mode: EvidenceMode
): SentenceStatus {
	if (!state || state.interpretable === null) return 'todo';
	return sentenceGap(s, state, mode) ? 'progress' : 'done';
}

/** The state as the save action takes it: an uninterpretable sentence posts no assertions. */
export function stepOf(position: number, state: SentenceState) {
	return {
		position,
		interpretable: state.interpretable,
		assertions: state.interpretable ? state.assertions : []
	};
}

/** Sets whether a sentence is interpretable; in a per-sentence study a "yes" makes its one assertion. */
export function setInterpretable(
	state: SentenceState,
	value: boolean,
	words: number,
	mode: EvidenceMode
): SentenceState {
	const assertions =
		value && mode === 'sentence' && !state.assertions.length
			? [{ start: 0, end: words, relevance: null, relations: [] }]
			: state.assertions;
	return { interpretable: value, assertions };
}

/** The word cursor: the word it is on, and where a Shift-selection started. */
export interface WordCursor {
	cursor: number;
	anchor: number;
}

/** Moves the cursor by `delta` words within the sentence; with `extend` the anchor stays. */
export function moveCursor(
	c: WordCursor,
	delta: number,
	words: number,
	extend: boolean
): WordCursor {
	const cursor = Math.min(Math.max(c.cursor + delta, 0), Math.max(words - 1, 0));
	return { cursor, anchor: extend ? c.anchor : cursor };
}

/** The words selected, start..end exclusive. */
export const selectedSpan = (c: WordCursor) => ({
	start: Math.min(c.cursor, c.anchor),
	end: Math.max(c.cursor, c.anchor) + 1
});

/** The assertion holding word `w` (-1: none). */
export const assertionAt = (assertions: AssertionState[], w: number) =>
	assertions.findIndex((a) => a.start <= w && w < a.end);

/**
 * Marks words start..end as a new assertion, kept in reading order: the assertions and the new
 * one's index, or a refusal when it overlaps an assertion already marked.
 */
export function markAssertion(
	assertions: AssertionState[],
	span: { start: number; end: number }
): { assertions: AssertionState[]; index: number } | { refused: string } {
	if (assertions.some((a) => a.start < span.end && span.start < a.end))
		return { refused: 'Those words overlap an assertion already marked; remove it first.' };
	const added: AssertionState = { ...span, relevance: null, relations: [] };
	const next = [...assertions, added].sort((a, b) => a.start - b.start);
	return { assertions: next, index: next.indexOf(added) };
}

/** Replaces assertion `i` with `edit` of it. */
export function editAssertion(
	assertions: AssertionState[],
	i: number,
	edit: (a: AssertionState) => AssertionState
): AssertionState[] {
	return assertions.map((a, j) => (j === i ? edit(a) : a));
}

/** The relation of an assertion to a document (its evidence kept when the relation changes). */
export function withRelation(
	a: AssertionState,
	pmid: string,
	relation: EvidenceRelation
): AssertionState {
	const old = a.relations.find((r) => r.pmid === pmid);
	const others = a.relations.filter((r) => r.pmid !== pmid);
	return { ...a, relations: [...others, { pmid, relation, evidence: old?.evidence ?? [] }] };
}

/** Adds or removes sentence `n` of a document as evidence (null: no relation chosen yet). */
export function toggledEvidence(a: AssertionState, pmid: string, n: number): AssertionState | null {
	const r = a.relations.find((x) => x.pmid === pmid);
	if (!r) return null;
	const evidence = r.evidence.includes(n)
		? r.evidence.filter((x) => x !== n)
		: [...r.evidence, n].sort((x, y) => x - y);
	return { ...a, relations: a.relations.map((x) => (x === r ? { ...r, evidence } : x)) };
}

/** The sentence to show first: the first not done, else the first. */
export function firstOpen(
	sentences: ScreenSentence[],
	saved: Record<number, SentenceState>,
	mode: EvidenceMode
): number {
	const open = sentences.findIndex((s) => sentenceStatus(s, saved[s.position], mode) !== 'done');
	return open < 0 ? 0 : open;
}
