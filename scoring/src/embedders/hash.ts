import type { Embedder } from './types';

const TWO_32 = 4294967296;
const TOKEN = /[a-z0-9]+|[^\sa-z0-9]/gu;
/** Alphanumeric tokens longer than this are split into a head piece and one '##' continuation. */
const PIECE_HEAD = 6;

/** Character-trigram hashing vector of one text (definition in scoring/README.md). */
export function hashEncode(text: string, dims: number): Float64Array {
	const v = new Float64Array(dims);
	const cps = Array.from('#' + text.toLowerCase() + '#', (c) => c.codePointAt(0) as number);
	for (let i = 0; i + 3 <= cps.length; i++) {
		let h = 0;
		for (let j = i; j < i + 3; j++) h = (h * 31 + cps[j]) % TWO_32;
		v[h % dims] += 1;
	}
	return v;
}

/** Deterministic stand-in for WordPiece: lower-case word/punctuation tokens, long words split once. */
export function hashTokenize(text: string): string[] {
	const out: string[] = [];
	for (const m of text.toLowerCase().matchAll(TOKEN)) {
		const t = m[0];
		const isWord = /^[a-z0-9]+$/.test(t);
		if (isWord && t.length > PIECE_HEAD)
			out.push(t.slice(0, PIECE_HEAD), '##' + t.slice(PIECE_HEAD));
		else out.push(t);
	}
	return out;
}

/** The `hash:<D>` embedder: fast, dependency-free and deterministic; for tests and benchmarks. */
export function createHashEmbedder(dims: number): Embedder {
	if (!Number.isInteger(dims) || dims < 1 || dims > 1_000_000) {
		throw new Error(`hash embedder dimension must be an integer in 1..1000000, got ${dims}`);
	}
	return {
		name: `hash:${dims}`,
		encode: async (texts) => texts.map((t) => hashEncode(t, dims)),
		tokenize: hashTokenize
	};
}
