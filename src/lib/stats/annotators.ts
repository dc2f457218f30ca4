// Annotator models: how good each rater is, estimated from the labels alone (no gold), by the
// Dawid–Skene model (Dawid & Skene 1979, "Maximum likelihood estimation of observer error-rates
// using the EM algorithm", Applied Statistics 28(1):20–28).
import type { Stat } from './types';
import { defined, undefinedStat } from './types';

/** One label: an annotator's category for an item. The same annotator may label an item again. */
export interface AnnotatorLabel {
	item: string;
	annotator: string;
	label: string;
}

export interface DawidSkeneOptions {
	/** The categories in order; by default the distinct labels, sorted by their text. */
	classes?: string[];
	/** At most this many EM iterations (default 1000). */
	maxIterations?: number;
	/** Stop when no class prior or error rate moves by more than this between iterations (1e-10). */
	tolerance?: number;
}

export interface AnnotatorEstimate {
	annotator: string;
	/** Labels the annotator gave (repeats count). */
	n: number;
	/**
	 * Σ_j p_j · π_jj: the probability that the annotator's label of an item drawn from the class
	 * priors is the true class, from the estimated error rates. Undefined with the model.
	 */
	competence: Stat;
	/** π[j][l]: probability of labelling l an item whose true class is j (rows sum to 1). */
	errorRates: number[][];
}

export type DawidSkeneResult =
	| {
			ok: true;
			classes: string[];
			items: string[];
			/** p_j: estimated share of items in each class. */
			priors: number[];
			/** T[i][j]: posterior probability that item i is of class j. */
			posteriors: number[][];
			annotators: AnnotatorEstimate[];
			logLikelihood: number;
			iterations: number;
			converged: boolean;
	  }
	| { ok: false; reason: string };

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The Dawid–Skene model fitted by EM: each annotator k has an error-rate matrix π^k (row j: the
 * distribution of k's labels for an item of true class j), the classes have priors p, and labels
 * are independent given the true class. Initialised by majority vote — an item's class is the
 * most frequent label, a tie split equally among the tied classes (so the start depends on no
 * order) — then M-step (paper eqs 2.3, 2.4) and E-step (eq 2.5) alternate until no parameter
 * moves more than `tolerance`, or `maxIterations`. A class no item is (softly) assigned to leaves
 * the annotator's row for it at 1/K. Deterministic: items, annotators and classes are sorted.
 * Undefined (with the reason) for fewer than 2 annotators, fewer than 2 classes, or when no item
 * was labelled by 2 different annotators.
 */
export function dawidSkene(
	labels: AnnotatorLabel[],
	opts: DawidSkeneOptions = {}
): DawidSkeneResult {
	const maxIterations = opts.maxIterations ?? 1000;
	const tolerance = opts.tolerance ?? 1e-10;
	const classes = opts.classes ?? [...new Set(labels.map((l) => l.label))].sort(byText);
	const annotators = [...new Set(labels.map((l) => l.annotator))].sort(byText);
	const items = [...new Set(labels.map((l) => l.item))].sort(byText);
	if (annotators.length < 2)
		return { ok: false, reason: `needs at least 2 annotators; found ${annotators.length}` };
	if (classes.length < 2)
		return { ok: false, reason: `needs at least 2 categories; found ${classes.length}` };
	const classIndex = new Map(classes.map((c, i) => [c, i]));
	const unknown = labels.find((l) => !classIndex.has(l.label));
	if (unknown) return { ok: false, reason: `label ${unknown.label} is not one of the categories` };
	const itemIndex = new Map(items.map((x, i) => [x, i]));
	const annotatorIndex = new Map(annotators.map((x, i) => [x, i]));
	const I = items.length;
	const J = classes.length;
	const K = annotators.length;
	// counts[i]: per item, the (annotator, label, count) triples
	const counts: Map<number, number>[] = Array.from({ length: I }, () => new Map());
	const whoRated: Set<number>[] = Array.from({ length: I }, () => new Set());
	for (const l of labels) {
		const i = itemIndex.get(l.item)!;
		const key = annotatorIndex.get(l.annotator)! * J + classIndex.get(l.label)!;
		counts[i].set(key, (counts[i].get(key) ?? 0) + 1);
		whoRated[i].add(annotatorIndex.get(l.annotator)!);
	}
	if (!whoRated.some((s) => s.size >= 2))
		return { ok: false, reason: 'no item was labelled by 2 different annotators' };
	const cells = counts.map((m) =>
		[...m]
			.sort((a, b) => a[0] - b[0])
			.map(([key, n]) => ({ k: Math.floor(key / J), l: key % J, n }))
	);

	// Majority-vote start.
	let T = cells.map((row) => {
		const votes = new Array<number>(J).fill(0);
		for (const c of row) votes[c.l] += c.n;
		const top = Math.max(...votes);
		const tied = votes.filter((v) => v === top).length;
		return votes.map((v) => (v === top ? 1 / tied : 0));
	});

	let p = new Array<number>(J).fill(0);
	let pi: number[][][] = [];
	let iterations = 0;
	let converged = false;
	let logLikelihood = -Infinity;
	for (;;) {
		// M-step.
		const nextP = new Array<number>(J).fill(0);
		for (const row of T) for (let j = 0; j < J; j++) nextP[j] += row[j] / I;
		const nextPi = Array.from({ length: K }, () =>
			Array.from({ length: J }, () => new Array<number>(J).fill(0))
		);
		for (let i = 0; i < I; i++)
			for (const c of cells[i]) for (let j = 0; j < J; j++) nextPi[c.k][j][c.l] += T[i][j] * c.n;
		for (const m of nextPi)
			for (const row of m) {
				const total = row.reduce((a, b) => a + b, 0);
				for (let l = 0; l < J; l++) row[l] = total > 0 ? row[l] / total : 1 / J;
			}
		let change = 0;
		if (iterations > 0) {
			for (let j = 0; j < J; j++) change = Math.max(change, Math.abs(nextP[j] - p[j]));
			for (let k = 0; k < K; k++)
				for (let j = 0; j < J; j++)
					for (let l = 0; l < J; l++)
						change = Math.max(change, Math.abs(nextPi[k][j][l] - pi[k][j][l]));
		}
		p = nextP;
		pi = nextPi;
		iterations++;
		// E-step (in logs: a product of many small rates underflows).
		logLikelihood = 0;
		T = cells.map((row, i) => {
			const log = p.map((pj, j) => {
				let s = Math.log(pj);
				for (const c of row) s += c.n * Math.log(pi[c.k][j][c.l]);
				return s;
			});
			const top = Math.max(...log);
			if (top === -Infinity) return T[i];
			const w = log.map((s) => Math.exp(s - top));
			const total = w.reduce((a, b) => a + b, 0);
			logLikelihood += top + Math.log(total);
			return w.map((x) => x / total);
		});
		if (iterations > 1 && change <= tolerance) {
			converged = true;
			break;
		}
		if (iterations >= maxIterations) break;
	}

	const given = new Array<number>(K).fill(0);
	for (const row of cells) for (const c of row) given[c.k] += c.n;
	return {
		ok: true,
		classes,
		items,
		priors: p,
		posteriors: T,
		logLikelihood,
		iterations,
		converged,
		annotators: annotators.map((a, k) => ({
			annotator: a,
			n: given[k],
			competence: converged
				? defined(p.reduce((s, pj, j) => s + pj * pi[k][j][j], 0))
				: undefinedStat(`EM did not converge in ${maxIterations} iterations`),
			errorRates: pi[k]
		}))
	};
}
