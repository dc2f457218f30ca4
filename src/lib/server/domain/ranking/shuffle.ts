import { createHash } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';

/**
 * A small deterministic PRNG (mulberry32) seeded from the SHA-256 of a seed string, so the
 * displayed order of an assignment can be recomputed from its stored seed.
 */
function prng(seed: string): () => number {
	const digest = sha256(new TextEncoder().encode(seed));
	let state = (digest[0] | (digest[1] << 8) | (digest[2] << 16) | (digest[3] << 24)) >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Fisher–Yates shuffle driven by `seed`: the same seed always gives the same order. */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
	const out = [...items];
	const next = prng(seed);
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(next() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** Display label of a position: 0 → "A", 1 → "B", … */
export function responseLetter(position: number): string {
	return String.fromCharCode(65 + position);
}

/**
 * A physician's question order in a study, recomputed from their order seed: ascending
 * md5(`<seed>:<study question id>`) in hex, ties by id (the claim sorts the same way in SQL).
 */
export function questionOrder(questionIds: readonly number[], seed: string): number[] {
	const key = (id: number) => createHash('md5').update(`${seed}:${id}`).digest('hex');
	return [...questionIds]
		.map((id) => ({ id, key: key(id) }))
		.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id))
		.map((e) => e.id);
}
