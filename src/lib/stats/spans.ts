// Agreement between two assessors' evidence spans within a sentence: token-level F1 of the words
// each marked, and its mean over the sentences both assessors marked.

/** A range of token (word) indices within one sentence, end exclusive. */
export interface Span {
	start: number;
	end: number;
}

/** The spans as sorted, disjoint ranges (overlapping or touching ones merged). */
function merged(spans: readonly Span[]): Span[] {
	for (const s of spans)
		if (
			!Number.isSafeInteger(s.start) ||
			!Number.isSafeInteger(s.end) ||
			s.start < 0 ||
			s.end < s.start
		)
			throw new RangeError(
				`a span must have whole-number bounds 0 ≤ start ≤ end; got [${s.start}, ${s.end})`
			);
	const sorted = spans.filter((s) => s.end > s.start).sort((x, y) => x.start - y.start);
	const out: Span[] = [];
	for (const s of sorted) {
		const last = out[out.length - 1];
		if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
		else out.push({ start: s.start, end: s.end });
	}
	return out;
}

const covered = (spans: Span[]) => spans.reduce((n, s) => n + s.end - s.start, 0);

/**
 * Token F1 of two assessors' spans in one sentence: with A and B the sets of tokens each covers,
 * 2|A∩B| / (|A| + |B|); null when neither marked any token. Works on ranges, so the cost does not
 * grow with the span lengths. Throws RangeError on a span with negative or reversed bounds.
 */
export function spanTokenF1(a: readonly Span[], b: readonly Span[]): number | null {
	const x = merged(a);
	const y = merged(b);
	const total = covered(x) + covered(y);
	if (total === 0) return null;
	let common = 0;
	let i = 0;
	let j = 0;
	while (i < x.length && j < y.length) {
		common += Math.max(0, Math.min(x[i].end, y[j].end) - Math.max(x[i].start, y[j].start));
		if (x[i].end < y[j].end) i++;
		else j++;
	}
	return (2 * common) / total;
}

/**
 * The mean token F1 over sentences both assessors judged, each pair one sentence; a sentence where
 * neither marked a token is skipped. `n` counts the sentences averaged; null with the reason when
 * there are none.
 */
export function meanSpanF1(
	pairs: readonly { a: readonly Span[]; b: readonly Span[] }[]
): { value: number; n: number } | { value: null; n: 0; reason: string } {
	let sum = 0;
	let n = 0;
	for (const { a, b } of pairs) {
		const f1 = spanTokenF1(a, b);
		if (f1 === null) continue;
		sum += f1;
		n++;
	}
	if (n === 0)
		return {
			value: null,
			n: 0,
			reason: pairs.length
				? 'neither assessor marked a span in any sentence both judged'
				: 'no sentence was judged by both assessors'
		};
	return { value: sum / n, n };
}
