// The ranking screen's keyboard shortcuts: one list, read by the key handler and by the `?` overlay.

import type { ErrorType, Tag } from '../constants';

/** The tag each letter key gives the focused answer. */
export const TAG_KEYS: Record<string, Tag> = { g: 'good', o: 'okay', b: 'bad' };

/** The error type each letter key toggles on the focused answer (tagged okay or bad). */
export const ERROR_TYPE_KEYS: Record<string, ErrorType> = {
	i: 'intrinsic_hallucination',
	e: 'extrinsic_hallucination',
	m: 'omission',
	x: 'other'
};

/** The key shown for a tag or an error type (upper case, as printed on a keyboard). */
export const keyOf = (map: Record<string, string>, value: string) =>
	Object.entries(map)
		.find(([, v]) => v === value)?.[0]
		.toUpperCase() ?? '';

/** Every shortcut of the ranking screen, as the overlay lists them. */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
	{ keys: ['J', 'K'], action: 'Next / previous answer' },
	{ keys: ['G', 'O', 'B'], action: 'Tag the focused answer good / okay / bad' },
	{
		keys: ['I', 'E', 'M', 'X'],
		action:
			'Toggle an error type on an okay or bad answer: intrinsic hallucination, extrinsic hallucination, omission, other'
	},
	{ keys: ['1 … 9'], action: 'Give the focused answer that rank' },
	{ keys: ['Alt+↑', 'Alt+↓'], action: 'Move the focused answer up / down in the ranking' },
	{ keys: ['Delete'], action: 'Take the focused answer out of the ranking' },
	{ keys: ['C'], action: 'Pick the focused answer to compare; two picked open side by side' },
	{ keys: ['Ctrl+Enter'], action: 'Submit the ranking' },
	{ keys: ['?'], action: 'Show these shortcuts' },
	{ keys: ['Esc'], action: 'Close the shortcuts or the comparison' }
];

/** Whether a key event happens while typing text, where letter and digit keys must type. */
export function isTyping(target: EventTarget | null): boolean {
	if (!(target instanceof HTMLElement)) return false;
	if (target.isContentEditable) return true;
	if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
	if (target instanceof HTMLInputElement)
		return !['radio', 'checkbox', 'button', 'submit', 'reset'].includes(target.type);
	return false;
}
