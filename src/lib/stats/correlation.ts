// Correlation of two paired samples: Pearson, Spearman (average ranks) and Kendall's tau-b.
import { defined, undefinedStat, type Stat } from './types';

/** The pairs where both values are finite numbers: a missing value drops its pair (pairwise deletion). */
function completePairs(x: number[], y: number[]): [Float64Array, Float64Array] {
	if (x.length !== y.length) throw new RangeError(`x has ${x.length} values and y ${y.length}`);
	let n = 0;
	for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i]) && Number.isFinite(y[i])) n++;
	const a = new Float64Array(n);
	const b = new Float64Array(n);
	for (let i = 0, k = 0; i < x.length; i++) {
		if (Number.isFinite(x[i]) && Number.isFinite(y[i])) {
			a[k] = x[i];
			b[k++] = y[i];
		}
	}
	return [a, b];
}

function pearsonOf(x: ArrayLike<number>, y: ArrayLike<number>, tiedWhat = 'no variance'): Stat {
	const n = x.length;
	if (n < 2) return undefinedStat('fewer than 2 pairs');
	let mx = 0;
	let my = 0;
	for (let i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	let sxy = 0;
	let sxx = 0;
	let syy = 0;
	for (let i = 0; i < n; i++) {
		const dx = x[i] - mx;
		const dy = y[i] - my;
		sxy += dx * dy;
		sxx += dx * dx;
		syy += dy * dy;
	}
	if (sxx === 0) return undefinedStat(`x has ${tiedWhat}`);
	if (syy === 0) return undefinedStat(`y has ${tiedWhat}`);
	// Clamp the last ulp of rounding so a perfect correlation reads exactly ±1.
	return defined(Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))));
}

/**
 * Pearson's r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²).
 * Missing data: a pair with a non-finite value is dropped. Undefined with fewer than 2 pairs or
 * when x or y has no variance.
 */
export function pearson(x: number[], y: number[]): Stat {
	const [a, b] = completePairs(x, y);
	return pearsonOf(a, b);
}

/** Ranks 1…n with tied values sharing the mean of the ranks they span (average or "mid" ranks). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
	const n = values.length;
	const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => values[i] - values[j]);
	const ranks = new Float64Array(n);
	for (let start = 0; start < n;) {
		let end = start + 1;
		while (end < n && values[order[end]] === values[order[start]]) end++;
		const mid = (start + 1 + end) / 2;
		for (let k = start; k < end; k++) ranks[order[k]] = mid;
		start = end;
	}
	return ranks;
}

/**
 * Spearman's rho: Pearson's r of the average ranks (so ties are handled exactly, not by the
 * 1 − 6Σd²/(n(n²−1)) shortcut, which holds only without ties).
 * Missing data: a pair with a non-finite value is dropped. Undefined with fewer than 2 pairs or
 * when x or y has all values tied.
 */
export function spearman(x: number[], y: number[]): Stat {
	const [a, b] = completePairs(x, y);
	return pearsonOf(averageRanks(a), averageRanks(b), 'all values tied');
}

/**
 * Kendall's tau-b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ = Σ t(t−1)/2 over the
 * groups of tied x, n₂ the same for y (a pair tied in x or y is neither concordant nor discordant).
 * Computed in O(n log n) by Knight's (1966) algorithm. Missing data: a pair with a non-finite value
 * is dropped. Undefined with fewer than 2 pairs or when x or y has all values tied.
 */
export function kendallTauB(x: number[], y: number[]): Stat {
	const [a, b] = completePairs(x, y);
	return tauBOf(a, b);
}

/** Kendall's tau-b of complete pairs (see kendallTauB). */
export function tauBOf(x: ArrayLike<number>, y: ArrayLike<number>): Stat {
	const n = x.length;
	if (n < 2) return undefinedStat('fewer than 2 pairs');
	// Sort by x, then y: tied-x runs are contiguous, and within them y is ascending.
	const idx = Array.from({ length: n }, (_, i) => i).sort((i, j) => x[i] - x[j] || y[i] - y[j]);
	const ys = new Float64Array(n);
	for (let i = 0; i < n; i++) ys[i] = y[idx[i]];
	let tiedX = 0;
	let tiedXY = 0;
	for (let start = 0; start < n;) {
		let end = start + 1;
		while (end < n && x[idx[end]] === x[idx[start]]) end++;
		const t = end - start;
		tiedX += (t * (t - 1)) / 2;
		for (let s = start; s < end;) {
			let e = s + 1;
			while (e < end && ys[e] === ys[s]) e++;
			tiedXY += ((e - s) * (e - s - 1)) / 2;
			s = e;
		}
		start = end;
	}
	// A stable merge sort on y counts the discordant pairs as the swaps it makes.
	const swaps = mergeSortSwaps(ys, new Float64Array(n));
	let tiedY = 0;
	for (let start = 0; start < n;) {
		let end = start + 1;
		while (end < n && ys[end] === ys[start]) end++;
		tiedY += ((end - start) * (end - start - 1)) / 2;
		start = end;
	}
	const n0 = (n * (n - 1)) / 2;
	if (tiedX === n0) return undefinedStat('x has all values tied');
	if (tiedY === n0) return undefinedStat('y has all values tied');
	const concordantMinusDiscordant = n0 - tiedX - tiedY + tiedXY - 2 * swaps;
	const tau = concordantMinusDiscordant / Math.sqrt((n0 - tiedX) * (n0 - tiedY));
	return defined(Math.max(-1, Math.min(1, tau)));
}

/** Sorts a in place (ascending), returning the number of inversions (pairs i<j with a[i] > a[j]). */
function mergeSortSwaps(a: Float64Array, buf: Float64Array): number {
	const n = a.length;
	let swaps = 0;
	let src = a;
	let dst = buf;
	for (let width = 1; width < n; width *= 2) {
		for (let lo = 0; lo < n; lo += 2 * width) {
			const mid = Math.min(lo + width, n);
			const hi = Math.min(lo + 2 * width, n);
			let i = lo;
			let j = mid;
			let k = lo;
			while (i < mid && j < hi) {
				if (src[j] < src[i]) {
					swaps += mid - i;
					dst[k++] = src[j++];
				} else dst[k++] = src[i++];
			}
			while (i < mid) dst[k++] = src[i++];
			while (j < hi) dst[k++] = src[j++];
		}
		[src, dst] = [dst, src];
	}
	if (src !== a) a.set(src);
	return swaps;
}
