import { describe, expect, it } from 'vitest';
import { keyAction, type KeyContext } from './keys';

const free: KeyContext = { typing: false, onControl: false, answered: true };

describe('evidence screen keys', () => {
	it('Y and N judge the answer as a whole first, then the sentence', () => {
		expect(keyAction({ key: 'y' }, { ...free, answered: false })).toEqual({
			kind: 'answers',
			value: true
		});
		expect(keyAction({ key: 'n' }, free)).toEqual({ kind: 'interpretable', value: false });
		expect(keyAction({ key: 'N', shiftKey: true }, free)).toEqual({
			kind: 'answers',
			value: false
		});
	});

	it('maps spans, relations, evidence, documents and relevance', () => {
		expect(keyAction({ key: 'ArrowRight', shiftKey: true }, free)).toEqual({
			kind: 'word',
			delta: 1,
			extend: true
		});
		expect(keyAction({ key: 'Enter' }, free)).toEqual({ kind: 'mark' });
		expect(keyAction({ key: 'Delete' }, free)).toEqual({ kind: 'remove' });
		expect(keyAction({ key: '1' }, free)).toEqual({ kind: 'relation', relation: 'supports' });
		expect(keyAction({ key: '5' }, free)).toEqual({ kind: 'relation', relation: 'not_relevant' });
		expect(keyAction({ key: 'ArrowDown' }, free)).toEqual({ kind: 'docSentence', delta: 1 });
		expect(keyAction({ key: ' ' }, free)).toEqual({ kind: 'evidence' });
		expect(keyAction({ key: ']' }, free)).toEqual({ kind: 'document', delta: 1 });
		expect(keyAction({ key: 'r' }, free)).toEqual({
			kind: 'relevance',
			relevance: 'inappropriate'
		});
		expect(keyAction({ key: 'PageDown' }, free)).toEqual({ kind: 'sentence', delta: 1 });
		expect(keyAction({ key: 'k' }, free)).toEqual({ kind: 'sentence', delta: -1 });
	});

	it('leaves typing alone except Ctrl+Enter, and a focused control its own keys', () => {
		const typing = { ...free, typing: true };
		expect(keyAction({ key: 'y' }, typing)).toBeNull();
		expect(keyAction({ key: '1' }, typing)).toBeNull();
		expect(keyAction({ key: 'Enter', ctrlKey: true }, typing)).toEqual({ kind: 'finish' });
		const control = { ...free, onControl: true };
		for (const key of ['Enter', ' ', 'ArrowLeft', 'ArrowDown'])
			expect(keyAction({ key }, control)).toBeNull();
		expect(keyAction({ key: '2' }, control)).toEqual({
			kind: 'relation',
			relation: 'partially_supports'
		});
		expect(keyAction({ key: 'y', ctrlKey: true }, free)).toBeNull();
	});
});
