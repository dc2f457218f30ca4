import { createHash } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';

/** The initial state of the PRNG of `seed`: the first 4 bytes of its SHA-256, little-endian. */
function initialState(seed: string): number {
	const digest = sha256(new TextEncoder().encode(seed));
	return (digest[0] | (digest[1] << 8) | (digest[2] << 16) | (digest[3] << 24)) >>> 0;
}

/**
 * A small deterministic PRNG (mulberry32) seeded from the SHA-256 of a seed string, so the
 * displayed order of an assignment can be recomputed from its stored seed.
 */
function mulberry32(initial: number): () => number {
	let state = initial;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function fisherYates<T>(items: readonly T[], next: () => number): T[] {
	const out = [...items];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(next() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** Fisher–Yates shuffle driven by `seed`: the same seed always gives the same order. */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
	return fisherYates(items, mulberry32(initialState(seed)));
}

/**
 * `seededShuffle` of the indices 0..n-1 for every n from 1 to `max`, concatenated (the one for n
 * starts at n(n-1)/2): the order of n items under `seed` whatever n turns out to be, with one
 * hash of the seed for all.
 */
export function seededPermutations(seed: string, max: number): number[] {
	const initial = initialState(seed);
	const out: number[] = [];
	for (let n = 1; n <= max; n++)
		out.push(
			...fisherYates(
				Array.from({ length: n }, (_, i) => i),
				mulberry32(initial)
			)
		);
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
