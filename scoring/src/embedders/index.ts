import { createHashEmbedder } from './hash';
import type { Embedder, EmbedderOptions } from './types';

export type { Embedder, EmbedderOptions } from './types';
export { createHashEmbedder, hashEncode, hashTokenize } from './hash';

/** Cosine similarity; 0 when either vector is all zeros (docs/scoring-behaviour.md §7). */
export function cosine(a: Float64Array, b: Float64Array): number {
	let dot = 0;
	let na = 0;
	let nb = 0;
	for (let i = 0; i < a.length; i++) {
		dot += a[i] * b[i];
		na += a[i] * a[i];
		nb += b[i] * b[i];
	}
	return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Parses `minilm` | `hash:<D>` and builds that embedder (MiniLM is loaded lazily: ~470 MB of deps). */
export async function createEmbedder(spec: string, opts: EmbedderOptions = {}): Promise<Embedder> {
	const hash = /^hash:(\d+)$/.exec(spec);
	if (hash) return createHashEmbedder(Number(hash[1]));
	if (spec === 'minilm') {
		const { createMiniLmEmbedder } = await import('./minilm');
		return createMiniLmEmbedder(opts);
	}
	throw new Error(
		`unknown embedder '${spec}': use 'minilm' or 'hash:<dimensions>' (e.g. hash:384)`
	);
}
