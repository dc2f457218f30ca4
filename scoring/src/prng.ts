/** Fixed seed of the baseline sample, so every run of the same data gives the same baseline b. */
export const BASELINE_SEED = 2025;

/** mulberry32: a small, well-distributed 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** k distinct elements drawn without replacement (partial Fisher–Yates), like Python random.sample. */
export function sample<T>(xs: readonly T[], k: number, rand: () => number): T[] {
	const a = xs.slice();
	for (let i = 0; i < k; i++) {
		const j = i + Math.floor(rand() * (a.length - i));
		[a[i], a[j]] = [a[j], a[i]];
	}
	return a.slice(0, k);
}
