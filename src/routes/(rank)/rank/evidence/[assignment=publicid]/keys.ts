// The evidence screen's keys, as a pure function from a key press to what it asks for, and the
// list the shortcuts dialog shows. The page (EvidenceForm.svelte) applies the actions.
import {
	EVIDENCE_RELATIONS,
	EVIDENCE_RELEVANCES,
	type EvidenceRelation,
	type EvidenceRelevance
} from '$lib/constants';

export type KeyAction =
	| { kind: 'shortcuts' }
	| { kind: 'finish' }
	| { kind: 'answers'; value: boolean }
	| { kind: 'interpretable'; value: boolean }
	| { kind: 'sentence'; delta: 1 | -1 }
	| { kind: 'word'; delta: 1 | -1; extend: boolean }
	| { kind: 'mark' }
	| { kind: 'remove' }
	| { kind: 'relation'; relation: EvidenceRelation }
	| { kind: 'docSentence'; delta: 1 | -1 }
	| { kind: 'evidence' }
	| { kind: 'document'; delta: 1 | -1 }
	| { kind: 'relevance'; relevance: EvidenceRelevance };

export interface KeyPress {
	key: string;
	shiftKey?: boolean;
	ctrlKey?: boolean;
	metaKey?: boolean;
	altKey?: boolean;
}

export interface KeyContext {
	/** Focus is in a text field: only Ctrl+Enter acts. */
	typing: boolean;
	/** Focus is on a native control (a button, radio, link): Enter, Space and arrows are its own. */
	onControl: boolean;
	/** Whether the answer as a whole was judged yet: until then Y and N judge it. */
	answered: boolean;
}

/** The key of each relevance, in the order of EVIDENCE_RELEVANCES. */
export const RELEVANCE_KEYS: Record<EvidenceRelevance, string> = Object.fromEntries(
	EVIDENCE_RELEVANCES.map((r, i) => [r, 'qwer'[i]])
) as Record<EvidenceRelevance, string>;
/** The digit of each relation, 1 to 5. */
export const RELATION_KEYS: Record<EvidenceRelation, string> = Object.fromEntries(
	EVIDENCE_RELATIONS.map((r, i) => [r, String(i + 1)])
) as Record<EvidenceRelation, string>;

const SENTENCE_KEYS: Record<string, 1 | -1> = { j: 1, PageDown: 1, k: -1, PageUp: -1 };

/** What a key press asks for (null: nothing; the browser keeps it). */
export function keyAction(e: KeyPress, ctx: KeyContext): KeyAction | null {
	if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return { kind: 'finish' };
	if (ctx.typing || e.ctrlKey || e.metaKey || e.altKey) return null;
	const arrowsOwn = ctx.onControl;
	switch (e.key) {
		case '?':
			return { kind: 'shortcuts' };
		case 'ArrowRight':
		case 'ArrowLeft':
			if (arrowsOwn) return null;
			return { kind: 'word', delta: e.key === 'ArrowRight' ? 1 : -1, extend: !!e.shiftKey };
		case 'ArrowDown':
		case 'ArrowUp':
			if (arrowsOwn) return null;
			return { kind: 'docSentence', delta: e.key === 'ArrowDown' ? 1 : -1 };
		case 'Enter':
			return ctx.onControl ? null : { kind: 'mark' };
		case ' ':
			return ctx.onControl ? null : { kind: 'evidence' };
		case 'Delete':
		case 'Backspace':
			return { kind: 'remove' };
		case '[':
			return { kind: 'document', delta: -1 };
		case ']':
			return { kind: 'document', delta: 1 };
	}
	if (e.key in SENTENCE_KEYS) return { kind: 'sentence', delta: SENTENCE_KEYS[e.key] };
	const lower = e.key.toLowerCase();
	if (lower === 'y' || lower === 'n') {
		const value = lower === 'y';
		return e.shiftKey || !ctx.answered
			? { kind: 'answers', value }
			: { kind: 'interpretable', value };
	}
	const relation = EVIDENCE_RELATIONS.find((r) => RELATION_KEYS[r] === e.key);
	if (relation) return { kind: 'relation', relation };
	const relevance = EVIDENCE_RELEVANCES.find((r) => RELEVANCE_KEYS[r] === e.key);
	if (relevance) return { kind: 'relevance', relevance };
	return null;
}

/** Every shortcut of the evidence screen, as the shortcuts dialog lists them. */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
	{
		keys: ['Y', 'N'],
		action:
			'Does the answer answer the question? (first), then: is this sentence interpretable? (N moves on)'
	},
	{ keys: ['Shift+Y', 'Shift+N'], action: 'Change the answer to the question as a whole' },
	{ keys: ['J', 'PageDown'], action: 'Next sentence' },
	{ keys: ['K', 'PageUp'], action: 'Previous sentence' },
	{ keys: ['←', '→'], action: 'Move the word cursor in the sentence' },
	{ keys: ['Shift+←', 'Shift+→'], action: 'Extend the selected words' },
	{ keys: ['Enter'], action: 'Mark the selected words as an assertion' },
	{ keys: ['Delete', 'Backspace'], action: 'Remove the assertion under the word cursor' },
	{
		keys: ['1 … 5'],
		action:
			'Relation of the assertion to the document in view: supports, partially supports, contradicts, neutral, not relevant'
	},
	{ keys: ['[', ']'], action: 'Previous / next cited document' },
	{ keys: ['↑', '↓'], action: 'Move among the document’s sentences' },
	{ keys: ['Space'], action: 'Select or unselect the sentence as evidence' },
	{
		keys: ['Q', 'W', 'E', 'R'],
		action: 'Relevance: required, unnecessary, borderline, inappropriate'
	},
	{ keys: ['Ctrl+Enter'], action: 'Finish the answer and go to the next' },
	{ keys: ['?'], action: 'Show these shortcuts' }
];
