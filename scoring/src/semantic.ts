import { cosine, type Embedder } from './embedders/index';
import { BASELINE_SEED, mulberry32, sample } from './prng';
import { content, isAlnum, pyLower, pyStrip } from './text';
import type { Mode } from './types';

/**
 * Layer weights and the "unrelated" offset of evaluate.py (docs/scoring-behaviour.md §7 step 7).
 */
const W_TOKEN = 0.4;
const W_SENTENCE = 0.4;
const W_PARAGRAPH = 0.2;
const OFFSET = 0.25;
const SNAP = 0.95;
const FALLBACK_BASELINE = 0.3;
const BASELINE_REFS = 100;
/** Token vectors are context-free, so they are cached; the cap bounds memory on huge runs. */
const TOKEN_CACHE_MAX = 200_000;

/** Semantic score of one pair with its layers (docs/scoring-behaviour.md §7). */
export interface SemanticResult {
	score: number;
	token: number;
	sentence: number;
	paragraph: number;
	/** The case-insensitive exact-match shortcut fired. */
	exact: boolean;
}

/** Document frequencies over the reference corpus (docs/scoring-behaviour.md §7.1). */
export interface IdfTable {
	n: number;
	df: Map<string, number>;
}

/** IDF corpus: every reference's set of word pieces (raw text; '##' pieces and punctuation included). */
export function buildIdf(refs: readonly string[], embedder: Embedder): IdfTable {
	const df = new Map<string, number>();
	for (const ref of refs)
		for (const t of new Set(embedder.tokenize(ref))) df.set(t, (df.get(t) ?? 0) + 1);
	return { n: refs.length, df };
}

/** idf(t) = ln((N+1)/(df+1)) + 1; unseen tokens get 1.0 (official) or the rarest weight (corrected). */
export function idfWeight(idf: IdfTable, token: string, mode: Mode): number {
	const df = idf.df.get(token);
	if (df === undefined) return mode === 'official' ? 1 : Math.log(idf.n + 1) + 1;
	return Math.log((idf.n + 1) / (df + 1)) + 1;
}

/**
 * Baseline b (docs/scoring-behaviour.md §7.2) with a seeded sample; corrected mode pairs only refs
 * with different text.
 */
export async function computeBaseline(
	refs: readonly string[],
	embedder: Embedder,
	mode: Mode,
	seed = BASELINE_SEED
): Promise<number> {
	const pool =
		mode === 'official' ? refs : [...new Map(refs.map((r) => [pyLower(pyStrip(r)), r])).values()];
	if (pool.length < BASELINE_REFS) return FALLBACK_BASELINE;
	const picked = sample(pool, BASELINE_REFS, mulberry32(seed));
	const vecs = await embedder.encode(picked);
	const half = BASELINE_REFS / 2;
	let sum = 0;
	for (let k = 0; k < half; k++) sum += cosine(vecs[k], vecs[k + half]);
	return sum / half;
}

/** Scores (expected, prediction) pairs; holds the IDF table, baseline and a token-vector cache. */
export class SemanticScorer {
	private readonly tokenCache = new Map<string, Float64Array>();

	constructor(
		readonly embedder: Embedder,
		readonly mode: Mode,
		readonly idf: IdfTable,
		readonly baseline: number
	) {}

	/** Builds the IDF table and baseline from the reference texts. */
	static async create(
		embedder: Embedder,
		mode: Mode,
		refs: readonly string[],
		seed = BASELINE_SEED
	) {
		const baseline = await computeBaseline(refs, embedder, mode, seed);
		return new SemanticScorer(embedder, mode, buildIdf(refs, embedder), baseline);
	}

	/** sem(expected, prediction) with its three layers. */
	async score(expected: string, prediction: string): Promise<SemanticResult> {
		const eRaw = pyStrip(expected);
		const pRaw = pyStrip(prediction);
		if (pyLower(eRaw) === pyLower(pRaw)) {
			// Corrected: an empty gold text (missing field) must not hand out full marks.
			const score = this.mode === 'corrected' && eRaw === '' ? 0 : 1;
			return { score, token: score, sentence: score, paragraph: score, exact: score === 1 };
		}
		const e = content(eRaw);
		const p = content(pRaw);
		const token = await this.tokenLayer(e, p).catch(() => 0);
		let sentence = 0;
		let paragraph = 0;
		try {
			const texts = this.mode === 'official' ? [e, p] : [e, p, eRaw, pRaw];
			const v = await this.embedder.encode(texts);
			sentence = cosine(v[0], v[1]);
			const raw = this.mode === 'official' ? sentence : cosine(v[2], v[3]);
			paragraph = this.baseline < 1 ? Math.max(0, (raw - this.baseline) / (1 - this.baseline)) : 0;
		} catch {
			sentence = 0;
			paragraph = 0;
		}
		const s = W_TOKEN * token + W_SENTENCE * sentence + W_PARAGRAPH * paragraph;
		let score =
			this.mode === 'official'
				? Math.max(0, s - OFFSET)
				: Math.min(1, Math.max(0, (s - OFFSET) / (1 - OFFSET)));
		if (score >= SNAP) score = 1;
		return { score, token, sentence, paragraph, exact: false };
	}

	/** Token layer W: IDF-weighted greedy alignment of context-free token vectors. */
	private async tokenLayer(e: string, p: string): Promise<number> {
		const et = this.embedder.tokenize(e).filter(isAlnum);
		const pt = this.embedder.tokenize(p).filter(isAlnum);
		if (et.length === 0 || pt.length === 0) return 0;
		const vec = await this.tokenVectors([...et, ...pt]);
		const ev = et.map((t) => vec.get(t) as Float64Array);
		const pv = pt.map((t) => vec.get(t) as Float64Array);
		const bestP = new Float64Array(pt.length).fill(-Infinity);
		const bestE = new Float64Array(et.length).fill(-Infinity);
		for (let i = 0; i < pt.length; i++) {
			for (let j = 0; j < et.length; j++) {
				const s = cosine(pv[i], ev[j]);
				if (s > bestP[i]) bestP[i] = s;
				if (s > bestE[j]) bestE[j] = s;
			}
		}
		const precision = weighted(pt, bestP, this.idf, this.mode);
		const recall = weighted(et, bestE, this.idf, this.mode);
		return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
	}

	private async tokenVectors(tokens: string[]): Promise<Map<string, Float64Array>> {
		const out = new Map<string, Float64Array>();
		const missing: string[] = [];
		for (const t of new Set(tokens)) {
			const v = this.tokenCache.get(t);
			if (v) out.set(t, v);
			else missing.push(t);
		}
		if (missing.length > 0) {
			const vs = await this.embedder.encode(missing);
			if (this.tokenCache.size + missing.length > TOKEN_CACHE_MAX) this.tokenCache.clear();
			missing.forEach((t, i) => {
				out.set(t, vs[i]);
				this.tokenCache.set(t, vs[i]);
			});
		}
		return out;
	}
}

function weighted(tokens: string[], best: Float64Array, idf: IdfTable, mode: Mode): number {
	let num = 0;
	let den = 0;
	tokens.forEach((t, i) => {
		const w = idfWeight(idf, t, mode);
		num += w * best[i];
		den += w;
	});
	return num / den;
}
