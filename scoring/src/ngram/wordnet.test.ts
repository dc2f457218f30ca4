import { describe, expect, it } from 'vitest';
import { getWordnet } from './wordnet';

describe('WordNet 3.0 (NLTK semantics)', () => {
	const wn = getWordnet();

	it('applies morphy rules and exception lists per part of speech', () => {
		expect(wn.morphy('dogs', 'n')).toEqual(['dog']);
		expect(wn.morphy('geese', 'n')).toEqual(['goose']);
		expect(wn.morphy('ran', 'v')).toEqual(['run']);
		expect(wn.morphy('better', 'a')).toEqual(['better', 'good', 'well']);
		expect(wn.morphy('studies', 'v')).toEqual(['study']);
		expect(wn.morphy('xyzzy', 'n')).toEqual([]);
	});

	it('returns lemma names of every synset, syntactic markers removed', () => {
		const car = wn.synsetLemmaNames('car');
		expect(car[0]).toEqual(['car', 'auto', 'automobile', 'machine', 'motorcar']);
		expect(car).toHaveLength(5);
		expect(wn.synsetLemmaNames('outback').flat()).toContain('outback');
	});

	it('builds METEOR synonym sets from single-word lemmas plus the word itself', () => {
		const syn = wn.synonyms('auto');
		expect(syn.has('car')).toBe(true);
		expect(syn.has('motorcar')).toBe(true);
		expect([...syn].some((s) => s.includes('_'))).toBe(false);
		expect(wn.synonyms('qwertyuiop')).toEqual(new Set(['qwertyuiop']));
	});
});
