// Port of NLTK's `PorterStemmer` (nltk/stem/porter.py, NLTK >= 3.5) in its default
// NLTK_EXTENSIONS mode: the irregular-forms pool, the 'ies'/'ied' length-4 rules, the relaxed
// step-1c y->i rule, 'alli' re-running step 2, 'fulli' and the 'logi' rule, the two-letter cvc
// rule, and the "words of <= 2 letters are returned unchanged" shortcut. Not Porter2/Snowball.

type Condition = ((stem: string) => boolean) | null;
type Rule = [suffix: string, replacement: string, condition: Condition];

/** Irregular forms mapped straight to their stem, bypassing the algorithm (NLTK's `pool`). */
const POOL: ReadonlyMap<string, string> = new Map([
	['sky', 'sky'],
	['skies', 'sky'],
	['dying', 'die'],
	['lying', 'lie'],
	['tying', 'tie'],
	['news', 'news'],
	['innings', 'inning'],
	['inning', 'inning'],
	['outings', 'outing'],
	['outing', 'outing'],
	['cannings', 'canning'],
	['canning', 'canning'],
	['howe', 'howe'],
	['proceed', 'proceed'],
	['exceed', 'exceed'],
	['succeed', 'succeed']
]);

function isVowelChar(c: string): boolean {
	return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';
}

/** Porter's consonant test: y is a consonant at the start or after a vowel. */
function isConsonant(word: string, i: number): boolean {
	const c = word[i];
	if (isVowelChar(c)) return false;
	if (c === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
	return true;
}

/** Number of 'vc' transitions in the consonant/vowel pattern of `stem` (Porter's m). */
function measure(stem: string): number {
	let m = 0;
	let prevVowel = false;
	for (let i = 0; i < stem.length; i++) {
		const cons = isConsonant(stem, i);
		if (cons && prevVowel) m++;
		prevVowel = !cons;
	}
	return m;
}

const positiveMeasure = (stem: string): boolean => measure(stem) > 0;
const measureGt1 = (stem: string): boolean => measure(stem) > 1;

function containsVowel(stem: string): boolean {
	for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
	return false;
}

function endsDoubleConsonant(word: string): boolean {
	const n = word.length;
	return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** Condition *o, with NLTK's extra two-letter vowel+consonant case. */
function endsCvc(word: string): boolean {
	const n = word.length;
	if (
		n >= 3 &&
		isConsonant(word, n - 3) &&
		!isConsonant(word, n - 2) &&
		isConsonant(word, n - 1) &&
		word[n - 1] !== 'w' &&
		word[n - 1] !== 'x' &&
		word[n - 1] !== 'y'
	) {
		return true;
	}
	return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

/** First rule whose suffix matches decides: applied if its condition holds, else word kept. */
function applyRuleList(word: string, rules: readonly Rule[]): string {
	for (const [suffix, replacement, condition] of rules) {
		if (suffix === '*d' && endsDoubleConsonant(word)) {
			const stem = word.slice(0, -2);
			return condition === null || condition(stem) ? stem + replacement : word;
		}
		if (word.endsWith(suffix)) {
			const stem = suffix === '' ? word : word.slice(0, -suffix.length);
			return condition === null || condition(stem) ? stem + replacement : word;
		}
	}
	return word;
}

const STEP1A: readonly Rule[] = [
	['sses', 'ss', null],
	['ies', 'i', null],
	['ss', 'ss', null],
	['s', '', null]
];

function step1a(word: string): string {
	if (word.endsWith('ies') && word.length === 4) return word.slice(0, -3) + 'ie';
	return applyRuleList(word, STEP1A);
}

function step1b(word: string): string {
	if (word.endsWith('ied')) return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i');
	if (word.endsWith('eed')) {
		const stem = word.slice(0, -3);
		return measure(stem) > 0 ? stem + 'ee' : word;
	}
	let stem: string | null = null;
	for (const suffix of ['ed', 'ing']) {
		if (word.endsWith(suffix)) {
			const candidate = word.slice(0, -suffix.length);
			if (containsVowel(candidate)) {
				stem = candidate;
				break;
			}
		}
	}
	if (stem === null) return word;
	const last = stem[stem.length - 1];
	const s = stem;
	return applyRuleList(s, [
		['at', 'ate', null],
		['bl', 'ble', null],
		['iz', 'ize', null],
		['*d', last, () => last !== 'l' && last !== 's' && last !== 'z'],
		['', 'e', (st) => measure(st) === 1 && endsCvc(st)]
	]);
}

const STEP1C: readonly Rule[] = [
	['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]
];

const STEP2_BASE: readonly Rule[] = [
	['ational', 'ate', positiveMeasure],
	['tional', 'tion', positiveMeasure],
	['enci', 'ence', positiveMeasure],
	['anci', 'ance', positiveMeasure],
	['izer', 'ize', positiveMeasure],
	['bli', 'ble', positiveMeasure],
	['alli', 'al', positiveMeasure],
	['entli', 'ent', positiveMeasure],
	['eli', 'e', positiveMeasure],
	['ousli', 'ous', positiveMeasure],
	['ization', 'ize', positiveMeasure],
	['ation', 'ate', positiveMeasure],
	['ator', 'ate', positiveMeasure],
	['alism', 'al', positiveMeasure],
	['iveness', 'ive', positiveMeasure],
	['fulness', 'ful', positiveMeasure],
	['ousness', 'ous', positiveMeasure],
	['aliti', 'al', positiveMeasure],
	['iviti', 'ive', positiveMeasure],
	['biliti', 'ble', positiveMeasure],
	['fulli', 'ful', positiveMeasure]
];

function step2(word: string): string {
	if (word.endsWith('alli') && positiveMeasure(word.slice(0, -4))) {
		return step2(word.slice(0, -4) + 'al');
	}
	// The 'logi' condition looks at the word minus 'ogi' (the 'l' stays with the stem).
	const logi: Rule = ['logi', 'log', () => positiveMeasure(word.slice(0, -3))];
	return applyRuleList(word, [...STEP2_BASE, logi]);
}

const STEP3: readonly Rule[] = [
	['icate', 'ic', positiveMeasure],
	['ative', '', positiveMeasure],
	['alize', 'al', positiveMeasure],
	['iciti', 'ic', positiveMeasure],
	['ical', 'ic', positiveMeasure],
	['ful', '', positiveMeasure],
	['ness', '', positiveMeasure]
];

const STEP4: readonly Rule[] = [
	['al', '', measureGt1],
	['ance', '', measureGt1],
	['ence', '', measureGt1],
	['er', '', measureGt1],
	['ic', '', measureGt1],
	['able', '', measureGt1],
	['ible', '', measureGt1],
	['ant', '', measureGt1],
	['ement', '', measureGt1],
	['ment', '', measureGt1],
	['ent', '', measureGt1],
	['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
	['ou', '', measureGt1],
	['ism', '', measureGt1],
	['ate', '', measureGt1],
	['iti', '', measureGt1],
	['ous', '', measureGt1],
	['ive', '', measureGt1],
	['ize', '', measureGt1]
];

function step5a(word: string): string {
	if (word.endsWith('e')) {
		const stem = word.slice(0, -1);
		const m = measure(stem);
		if (m > 1) return stem;
		if (m === 1 && !endsCvc(stem)) return stem;
	}
	return word;
}

function step5b(word: string): string {
	return applyRuleList(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/** NLTK `PorterStemmer().stem(word)` (NLTK_EXTENSIONS mode; lower-cases first). */
export function porterStem(word: string): string {
	const lower = word.toLowerCase();
	// NLTK looks the *original* word up in the pool but returns the entry of the lower-cased one.
	if (POOL.has(word)) return POOL.get(lower) as string;
	if (word.length <= 2) return lower;
	let stem = step1a(lower);
	stem = step1b(stem);
	stem = applyRuleList(stem, STEP1C);
	stem = step2(stem);
	stem = applyRuleList(stem, STEP3);
	stem = applyRuleList(stem, STEP4);
	stem = step5a(stem);
	return step5b(stem);
}

const cache = new Map<string, string>();

/** Memoised `porterStem` for hot loops (the vocabulary of answers is small and repetitive). */
export function porterStemCached(word: string): string {
	let stem = cache.get(word);
	if (stem === undefined) {
		stem = porterStem(word);
		if (cache.size > 200_000) cache.clear();
		cache.set(word, stem);
	}
	return stem;
}
