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

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
	const counts = new Map<string, number>();
	// U+0001 cannot occur inside a token produced by the tokenizer's whitespace split.
	for (let i = 0; i + n <= tokens.length; i++) {
		const key = n === 1 ? tokens[i] : tokens.slice(i, i + n).join('\u0001');
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

/** NLTK `modified_precision` for one reference: clipped matches and hyp n-gram count (>= 1). */
export function modifiedPrecision(
	reference: readonly string[],
	hypothesis: readonly string[],
	n: number
): { numerator: number; denominator: number } {
	const counts = ngramCounts(hypothesis, n);
	const refCounts = ngramCounts(reference, n);
	let numerator = 0;
	let total = 0;
	for (const [gram, count] of counts) {
		numerator += Math.min(count, refCounts.get(gram) ?? 0);
		total += count;
	}
	return { numerator, denominator: Math.max(1, total) };
}

/** NLTK `brevity_penalty(closest_ref_len, hyp_len)`. */
export function brevityPenalty(refLen: number, hypLen: number): number {
	if (hypLen > refLen) return 1;
	if (hypLen === 0) return 0;
	return Math.exp(1 - refLen / hypLen);
}

/** NLTK `sentence_bleu([reference], hypothesis, smoothing_function=SmoothingFunction().method1)`. */
export function sentenceBleu(reference: readonly string[], hypothesis: readonly string[]): number {
	const precisions = WEIGHTS.map((_, i) => modifiedPrecision(reference, hypothesis, i + 1));
	if (precisions[0].numerator === 0) return 0;
	const bp = brevityPenalty(reference.length, hypothesis.length);
	const logs = precisions.map(({ numerator, denominator }, i) => {
		const p = numerator === 0 ? (numerator + EPSILON) / denominator : numerator / denominator;
		return WEIGHTS[i] * Math.log(p);
	});
	return bp * Math.exp(fsum(logs));
}
