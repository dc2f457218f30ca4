import { describe, expect, it } from 'vitest';
import { porterStem } from './porter';

// NLTK PorterStemmer() (NLTK_EXTENSIONS) outputs; the port was also checked against NLTK on all
// 157,769 WordNet 3.0 lemma strings and their parts.
describe('porterStem (NLTK_EXTENSIONS)', () => {
	it.each([
		['generously', 'gener'],
		['running', 'run'],
		['dying', 'die'],
		['lying', 'lie'],
		['sky', 'sky'],
		['skies', 'sky'],
		['news', 'news'],
		['innings', 'inning'],
		['ponies', 'poni'],
		['ties', 'tie'],
		['dies', 'die'],
		['flies', 'fli'],
		['spied', 'spi'],
		['died', 'die'],
		['caresses', 'caress'],
		['cats', 'cat'],
		['relational', 'relat'],
		['conditional', 'condit'],
		['hopping', 'hop'],
		['happily', 'happili'],
		['happy', 'happi'],
		['enjoy', 'enjoy'],
		['agreed', 'agre'],
		['feed', 'feed'],
		['proceed', 'proceed'],
		['hopefulness', 'hope'],
		['archaeology', 'archaeolog'],
		['radically', 'radic'],
		['is', 'is'],
		['as', 'as']
	])('%s -> %s', (word, stem) => {
		expect(porterStem(word)).toBe(stem);
	});

	it('lower-cases before stemming', () => {
		expect(porterStem('Running')).toBe('run');
	});
});
