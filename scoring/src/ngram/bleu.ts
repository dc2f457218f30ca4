// Port of NLTK's `sentence_bleu([reference], hypothesis, smoothing_function=method1)` with the
// default 4-gram uniform weights (nltk/translate/bleu_score.py). Precisions keep NLTK's
// unnormalised numerator/denominator pairs, so smoothing adds 0.1 to a zero numerator over the
// hypothesis n-gram count (at least 1); the log-sum uses Python's exactly rounded `math.fsum`.

const WEIGHTS = [0.25, 0.25, 0.25, 0.25] as const;
const EPSILON = 0.1;

/** Python `math.fsum`: exactly rounded sum (Shewchuk partials + half-even correction). */
export function fsum(values: readonly number[]): number {
	const partials: number[] = [];
	for (let x of values) {
		let i = 0;
		for (let y of partials) {
			if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
			const hi = x + y;
			const lo = y - (hi - x);
			if (lo !== 0) partials[i++] = lo;
			x = hi;
		}
		partials.length = i;
		partials.push(x);
	}
	let n = partials.length;
	if (n === 0) return 0;
	let hi = partials[--n];
	let lo = 0;
	while (n > 0) {
		const x = hi;
		const y = partials[--n];
		hi = x + y;
		lo = y - (hi - x);
		if (lo !== 0) break;
	}
	if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
		const y = lo * 2;
		const x = hi + y;
		if (y === x - hi) hi = x;
	}
	return hi;
}

/** Tokens mapped to small integers shared by reference and hypothesis (n-gram keys as numbers). */
function internPair(
	reference: readonly string[],
	hypothesis: readonly string[]
): { ref: Int32Array; hyp: Int32Array; size: number } {
	const ids = new Map<string, number>();
	const intern = (tokens: readonly string[]): Int32Array => {
		const out = new Int32Array(tokens.length);
		for (let i = 0; i < tokens.length; i++) {
			let id = ids.get(tokens[i]);
			if (id === undefined) {
				id = ids.size;
				ids.set(tokens[i], id);
			}
			out[i] = id;
		}
		return out;
	};
	const ref = intern(reference);
	const hyp = intern(hypothesis);
	return { ref, hyp, size: ids.size };
}

/** N-gram counts keyed by the n-gram's id sequence read as a base-`base` number (or a string). */
function ngramCounts(tokens: Int32Array, n: number, base: number): Map<number | string, number> {
	const counts = new Map<number | string, number>();
	const numeric = base ** n <= Number.MAX_SAFE_INTEGER;
	for (let i = 0; i + n <= tokens.length; i++) {
		let key: number | string;
		if (numeric) {
			key = 0;
			for (let k = 0; k < n; k++) key = key * base + tokens[i + k];
		} else {
			key = tokens.subarray(i, i + n).join(',');
		}
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

function clipped(ref: Int32Array, hyp: Int32Array, n: number, base: number): Precision {
	if (base ** n > Number.MAX_SAFE_INTEGER) return clippedByMap(ref, hyp, n, base);
	// Sum over distinct hyp n-grams of min(hyp count, ref count): consume reference counts.
	const available = new Map<number, number>();
	for (let i = 0; i + n <= ref.length; i++) {
		let key = 0;
		for (let k = 0; k < n; k++) key = key * base + ref[i + k];
		available.set(key, (available.get(key) ?? 0) + 1);
	}
	let numerator = 0;
	const total = Math.max(0, hyp.length - n + 1);
	for (let i = 0; i < total; i++) {
		let key = 0;
		for (let k = 0; k < n; k++) key = key * base + hyp[i + k];
		const left = available.get(key);
		if (left !== undefined && left > 0) {
			numerator++;
			available.set(key, left - 1);
		}
	}
	return { numerator, denominator: Math.max(1, total) };
}

function clippedByMap(ref: Int32Array, hyp: Int32Array, n: number, base: number): Precision {
	const counts = ngramCounts(hyp, n, base);
	const refCounts = ngramCounts(ref, n, base);
	let numerator = 0;
	let total = 0;
	for (const [gram, count] of counts) {
		numerator += Math.min(count, refCounts.get(gram) ?? 0);
		total += count;
	}
	return { numerator, denominator: Math.max(1, total) };
}

interface Precision {
	numerator: number;
	denominator: number;
}

/** NLTK `modified_precision` for one reference: clipped matches and hyp n-gram count (>= 1). */
export function modifiedPrecision(
	reference: readonly string[],
	hypothesis: readonly string[],
	n: number
): Precision {
	const { ref, hyp, size } = internPair(reference, hypothesis);
	return clipped(ref, hyp, n, Math.max(size, 1));
}

/** NLTK `brevity_penalty(closest_ref_len, hyp_len)`. */
export function brevityPenalty(refLen: number, hypLen: number): number {
	if (hypLen > refLen) return 1;
	if (hypLen === 0) return 0;
	return Math.exp(1 - refLen / hypLen);
}

/** NLTK `sentence_bleu([reference], hypothesis, smoothing_function=SmoothingFunction().method1)`. */
export function sentenceBleu(reference: readonly string[], hypothesis: readonly string[]): number {
	const { ref, hyp, size } = internPair(reference, hypothesis);
	const precisions = WEIGHTS.map((_, i) => clipped(ref, hyp, i + 1, Math.max(size, 1)));
	if (precisions[0].numerator === 0) return 0;
	const bp = brevityPenalty(reference.length, hypothesis.length);
	const logs = precisions.map(({ numerator, denominator }, i) => {
		const p = numerator === 0 ? (numerator + EPSILON) / denominator : numerator / denominator;
		return WEIGHTS[i] * Math.log(p);
	});
	return bp * Math.exp(fsum(logs));
}
