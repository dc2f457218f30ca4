import { describe, expect, it } from 'vitest';
import { PREFERENCE_OUTCOME_LABELS } from '$lib/constants';
import { applyChoice, keyAction, SHORTCUTS, type KeyContext } from './choice';

const idle: KeyContext = { typing: false, inAspect: false, outcome: null };
const say = (o: keyof typeof PREFERENCE_OUTCOME_LABELS) => PREFERENCE_OUTCOME_LABELS[o];

describe('keyAction', () => {
	it('maps the arrows to A, B and the ties', () => {
		expect(keyAction({ key: 'ArrowLeft' }, idle)).toEqual({ kind: 'outcome', outcome: 'left' });
		expect(keyAction({ key: 'ArrowRight' }, idle)).toEqual({ kind: 'outcome', outcome: 'right' });
		expect(keyAction({ key: 'ArrowDown' }, idle)).toEqual({
			kind: 'outcome',
			outcome: 'tie_good'
		});
		expect(keyAction({ key: 'ArrowDown', shiftKey: true }, idle)).toEqual({
			kind: 'outcome',
			outcome: 'tie_bad'
		});
	});
	it('switches the tie’s kind when ↓ is pressed on a tie, back and forth', () => {
		const down = (outcome: KeyContext['outcome']) =>
			keyAction({ key: 'ArrowDown' }, { ...idle, outcome });
		expect(down('tie_good')).toEqual({ kind: 'outcome', outcome: 'tie_bad' });
		expect(down('tie_bad')).toEqual({ kind: 'outcome', outcome: 'tie_good' });
		expect(down('left')).toEqual({ kind: 'outcome', outcome: 'tie_good' });
	});
	it('maps the digits to the strengths (0 clears) and the tie kinds', () => {
		expect(keyAction({ key: '1' }, idle)).toEqual({ kind: 'strength', strength: 'slightly' });
		expect(keyAction({ key: '2' }, idle)).toEqual({ kind: 'strength', strength: 'clearly' });
		expect(keyAction({ key: '0' }, idle)).toEqual({ kind: 'strength', strength: null });
		expect(keyAction({ key: '3' }, idle)).toEqual({ kind: 'outcome', outcome: 'tie_good' });
		expect(keyAction({ key: '4' }, idle)).toEqual({ kind: 'outcome', outcome: 'tie_bad' });
		expect(keyAction({ key: '5' }, idle)).toBeNull();
	});
	it('gives the arrows to the focused aspect', () => {
		const aspect = { ...idle, inAspect: true };
		expect(keyAction({ key: 'ArrowLeft' }, aspect)).toEqual({ kind: 'aspect', outcome: 'left' });
		expect(keyAction({ key: 'ArrowRight' }, aspect)).toEqual({ kind: 'aspect', outcome: 'right' });
		expect(keyAction({ key: 'ArrowDown' }, aspect)).toEqual({ kind: 'aspect', outcome: 'tie' });
	});
	it('leaves keys to a text field, except Ctrl+Enter, which submits', () => {
		const typing = { ...idle, typing: true };
		for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowDown', '1', '3', '?', 'a'])
			expect(keyAction({ key }, typing)).toBeNull();
		expect(keyAction({ key: 'Enter', ctrlKey: true }, typing)).toEqual({ kind: 'submit' });
		expect(keyAction({ key: 'Enter', metaKey: true }, idle)).toEqual({ kind: 'submit' });
		expect(keyAction({ key: 'Enter' }, idle)).toBeNull();
	});
	it('opens the shortcuts on ? and leaves browser shortcuts alone', () => {
		expect(keyAction({ key: '?', shiftKey: true }, idle)).toEqual({ kind: 'shortcuts' });
		expect(keyAction({ key: 'ArrowLeft', altKey: true }, idle)).toBeNull();
		expect(keyAction({ key: '1', ctrlKey: true }, idle)).toBeNull();
	});
	it('lists a shortcut for every outcome and strength key', () => {
		const listed = SHORTCUTS.flatMap((s) => s.keys);
		for (const k of ['←', '→', '↓', 'Shift+↓', '0', '1', '2', '3', '4', 'Ctrl+Enter', '?'])
			expect(listed).toContain(k);
	});
});

describe('applyChoice', () => {
	it('keeps the strength when switching between A and B, and clears it on a tie', () => {
		const a = { outcome: 'left' as const, strength: 'clearly' as const };
		expect(applyChoice(a, { kind: 'outcome', outcome: 'right' }, say).choice).toEqual({
			outcome: 'right',
			strength: 'clearly'
		});
		const tie = applyChoice(a, { kind: 'outcome', outcome: 'tie_bad' }, say);
		expect(tie.choice).toEqual({ outcome: 'tie_bad', strength: null });
		expect(tie.message).toBe('Tie: both bad. The strength was cleared: a tie has none.');
	});
	it('takes a strength only after A or B', () => {
		const none = { outcome: null, strength: null };
		const refused = applyChoice(none, { kind: 'strength', strength: 'slightly' }, say);
		expect(refused).toEqual({
			choice: none,
			message: 'Choose A or B first: a tie takes no strength.'
		});
		const tie = { outcome: 'tie_good' as const, strength: null };
		expect(applyChoice(tie, { kind: 'strength', strength: 'clearly' }, say).choice).toBe(tie);
		const b = { outcome: 'right' as const, strength: null };
		expect(applyChoice(b, { kind: 'strength', strength: 'clearly' }, say)).toEqual({
			choice: { outcome: 'right', strength: 'clearly' },
			message: 'Strength: clearly better.'
		});
		expect(
			applyChoice({ ...b, strength: 'clearly' }, { kind: 'strength', strength: null }, say).choice
		).toEqual(b);
	});
});
