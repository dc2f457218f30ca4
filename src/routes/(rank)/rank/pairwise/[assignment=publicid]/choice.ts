// The pairwise screen's keys, as pure functions: which key does what, and what a choice does to
// the form's overall preference and strength. The screen (PreferenceForm.svelte) reads the key
// events and the focus; everything decided here has a test beside it.
import {
	PREFERENCE_STRENGTHS,
	type PreferenceOutcome,
	type PreferenceStrength
} from '$lib/constants';

export type AspectChoice = 'left' | 'right' | 'tie';

/** What a key asks for. */
export type KeyAction =
	| { kind: 'outcome'; outcome: PreferenceOutcome }
	| { kind: 'aspect'; outcome: AspectChoice }
	| { kind: 'strength'; strength: PreferenceStrength | null }
	| { kind: 'submit' }
	| { kind: 'shortcuts' };

export interface KeyPress {
	key: string;
	shiftKey?: boolean;
	ctrlKey?: boolean;
	metaKey?: boolean;
	altKey?: boolean;
}

export interface KeyContext {
	/** Focus is in a text field: keys type, only Ctrl+Enter acts. */
	typing: boolean;
	/** Focus is in one aspect's choices: the arrows choose for that aspect. */
	inAspect: boolean;
	/** The overall preference chosen so far. */
	outcome: PreferenceOutcome | null;
}

/** The digit of each strength: 1 slightly, 2 clearly (0 clears it). */
export const STRENGTH_DIGITS: Record<PreferenceStrength, string> = Object.fromEntries(
	PREFERENCE_STRENGTHS.map((s, i) => [s, String(i + 1)])
) as Record<PreferenceStrength, string>;
/** The digits of the two ties, after the strengths' (3 both good, 4 both bad). */
export const TIE_DIGITS = {
	tie_good: String(PREFERENCE_STRENGTHS.length + 1),
	tie_bad: String(PREFERENCE_STRENGTHS.length + 2)
} as const;

/** The keys that choose each overall outcome, as the screen shows them beside the choice. */
export const OUTCOME_KEYS: Record<PreferenceOutcome, string[]> = {
	left: ['←'],
	right: ['→'],
	tie_good: ['↓', TIE_DIGITS.tie_good],
	tie_bad: ['↓ ↓', 'Shift+↓', TIE_DIGITS.tie_bad]
};

/** Every shortcut of the pairwise screen, as the shortcuts dialog lists them. */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
	{ keys: ['←'], action: 'A (left) is better' },
	{ keys: ['→'], action: 'B (right) is better' },
	{
		keys: ['↓', TIE_DIGITS.tie_good],
		action: 'Tie: both good (↓ again switches between both good and both bad)'
	},
	{ keys: ['Shift+↓', TIE_DIGITS.tie_bad], action: 'Tie: both bad' },
	...PREFERENCE_STRENGTHS.map((s) => ({
		keys: [STRENGTH_DIGITS[s]],
		action: `Strength: ${s} better (after A or B)`
	})),
	{ keys: ['0'], action: 'Clear the strength' },
	{ keys: ['Tab'], action: 'Move to the aspects and the reason' },
	{ keys: ['←', '→', '↓'], action: 'In an aspect’s choices: A better, B better, tie' },
	{ keys: ['Ctrl+Enter'], action: 'Submit the preference and show the next pair' },
	{ keys: ['?'], action: 'This list' },
	{ keys: ['Esc'], action: 'Close this list' }
];

/** The action of a key press in its context, or null when the key is not the screen's. */
export function keyAction(e: KeyPress, context: KeyContext): KeyAction | null {
	if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return { kind: 'submit' };
	if (context.typing || e.ctrlKey || e.metaKey || e.altKey) return null;
	if (e.key === '?') return { kind: 'shortcuts' };
	if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
		const side = e.key === 'ArrowLeft' ? 'left' : 'right';
		return context.inAspect
			? { kind: 'aspect', outcome: side }
			: { kind: 'outcome', outcome: side };
	}
	if (e.key === 'ArrowDown') {
		if (context.inAspect) return { kind: 'aspect', outcome: 'tie' };
		// ↓ chooses a tie, both good; pressed on a tie it switches the tie's kind.
		const outcome = e.shiftKey || context.outcome === 'tie_good' ? 'tie_bad' : 'tie_good';
		return { kind: 'outcome', outcome };
	}
	if (e.key === '0') return { kind: 'strength', strength: null };
	const strength = PREFERENCE_STRENGTHS.find((s) => STRENGTH_DIGITS[s] === e.key);
	if (strength) return { kind: 'strength', strength };
	if (e.key === TIE_DIGITS.tie_good) return { kind: 'outcome', outcome: 'tie_good' };
	if (e.key === TIE_DIGITS.tie_bad) return { kind: 'outcome', outcome: 'tie_bad' };
	return null;
}

export interface Choice {
	outcome: PreferenceOutcome | null;
	strength: PreferenceStrength | null;
}

export const isTie = (o: PreferenceOutcome | null) => o === 'tie_good' || o === 'tie_bad';

/**
 * The overall choice after an outcome or strength action, and a sentence for screen readers. A
 * tie clears the strength (a tie has none); a strength without A or B chosen changes nothing.
 */
export function applyChoice(
	choice: Choice,
	action: Extract<KeyAction, { kind: 'outcome' | 'strength' }>,
	say: (outcome: PreferenceOutcome) => string
): { choice: Choice; message: string } {
	if (action.kind === 'outcome') {
		const strength = isTie(action.outcome) ? null : choice.strength;
		return {
			choice: { outcome: action.outcome, strength },
			message:
				say(action.outcome) +
				(choice.strength && !strength ? '. The strength was cleared: a tie has none.' : '.')
		};
	}
	if (action.strength && (choice.outcome === null || isTie(choice.outcome)))
		return { choice, message: 'Choose A or B first: a tie takes no strength.' };
	return {
		choice: { ...choice, strength: action.strength },
		message: action.strength ? `Strength: ${action.strength} better.` : 'Strength cleared.'
	};
}
