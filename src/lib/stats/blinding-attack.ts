// How well could a curious reader tell one source (the reference, or one model) apart from the
// other candidates of a question by the form of the texts alone? Two attacks, each picking one
// candidate per question: "pick the longest", and a conditional logistic model on surface
// features, cross-validated by question. Their hit rates are compared with chance (1/k) by a
// Wilson interval. Pure and deterministic: no randomness, ties are split evenly.

/** One question's candidates as a reader sees them; `source` names the reference or a model. */
export interface AttackQuestion {
	candidates: readonly { text: string; source: string }[];
}

/** Hits of one attack against one source, with a 95 % Wilson interval and chance. */
export interface PickRate {
	/** Questions where the attack picked the source (ties split evenly, so maybe fractional). */
	hits: number;
	/**
	 * Questions the source takes part in (with at least two candidates); for the classifier, of
	 * those it read (at most `CLASSIFIER_AT_MOST`).
	 */
	n: number;
	rate: number;
	/** What picking uniformly at random would hit: the mean of 1/k (or 2/k for the top two). */
	chance: number;
	low: number;
	high: number;
	/** The interval's lower bound lies above chance. */
	aboveChance: boolean;
}

export interface SourceAttack {
	source: string;
	/** The source's text is the longest of its question. */
	longest: PickRate;
	/** The source's text is among the two longest of its question. */
	topTwo: PickRate;
	/** A model trained on the other questions to find this source picks it. */
	classifier: PickRate;
}

const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion (Wilson 1927): `hits` of `n`, two-sided, 95 % unless
 * `z` says otherwise. Exact at the bounds (0 of n has low 0); n = 0 gives [0, 1].
 */
export function wilson(hits: number, n: number, z = Z95): { low: number; high: number } {
	if (n <= 0) return { low: 0, high: 1 };
	const p = hits / n;
	const z2 = z * z;
	const denominator = 1 + z2 / n;
	const centre = (p + z2 / (2 * n)) / denominator;
	const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
	return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function pickRate(hits: number, n: number, chanceSum: number): PickRate {
	const { low, high } = wilson(hits, n);
	const chance = n ? chanceSum / n : 0;
	return { hits, n, rate: n ? hits / n : 0, chance, low, high, aboveChance: n > 0 && low > chance };
}

/** Names of the surface features the classifier reads (per candidate). */
export const SURFACE_FEATURES = [
	'log characters',
	'log words',
	'character rank in question',
	'word rank in question',
	'sentences',
	'lines',
	'paragraphs',
	'list lines',
	'commas per 100 characters',
	'semicolons and colons per 100 characters',
	'brackets per 100 characters',
	'quotes and dashes per 100 characters',
	'question and exclamation marks',
	'upper-case share of letters',
	'digit share',
	'non-ASCII share',
	'markup characters',
	'mean word length',
	'starts with upper case',
	'ends with full stop'
] as const;

/** The raw surface features of one text (before ranks within its question are added). */
function rawFeatures(text: string): number[] {
	const t = text.trim();
	const chars = t.length;
	const words = t === '' ? 0 : t.split(/\s+/).length;
	const per100 = (re: RegExp) => (chars ? (100 * (t.match(re)?.length ?? 0)) / chars : 0);
	const count = (re: RegExp) => t.match(re)?.length ?? 0;
	const letters = count(/\p{L}/gu);
	return [
		Math.log1p(chars),
		Math.log1p(words),
		0,
		0,
		count(/[.!?](?:\s|$)/g),
		t === '' ? 0 : t.split('\n').length,
		t === '' ? 0 : t.split(/\n\s*\n/).length,
		count(/^\s*(?:[-*•]|\d+[.)])\s/gm),
		per100(/,/g),
		per100(/[;:]/g),
		per100(/[()[\]{}]/g),
		per100(/["'“”‘’\-–—]/g),
		count(/[?!]/g),
		letters ? count(/\p{Lu}/gu) / letters : 0,
		chars ? count(/\p{N}/gu) / chars : 0,
		chars ? count(/[^\p{ASCII}]/gu) / chars : 0,
		Math.log1p(count(/[*_#`<>~|]/g)),
		words ? letters / words : 0,
		/^\p{Lu}/u.test(t) ? 1 : 0,
		/\.$/.test(t) ? 1 : 0
	];
}

/** Ranks in [0, 1] (0 shortest, 1 longest), tied values sharing their mean rank. */
function ranks(values: readonly number[]): number[] {
	const k = values.length;
	if (k < 2) return values.map(() => 0.5);
	return values.map((v) => {
		const below = values.filter((w) => w < v).length;
		const equal = values.filter((w) => w === v).length;
		return (below + (equal - 1) / 2) / (k - 1);
	});
}

/** Each candidate's standardised feature vector, per question (standardised over all texts). */
function featureMatrix(questions: readonly AttackQuestion[]): number[][][] {
	const lengths = (q: AttackQuestion) => q.candidates.map((c) => c.text.trim().length);
	const words = (q: AttackQuestion) =>
		q.candidates.map((c) => (c.text.trim() ? c.text.trim().split(/\s+/).length : 0));
	const matrix = questions.map((q) => {
		const charRank = ranks(lengths(q));
		const wordRank = ranks(words(q));
		return q.candidates.map((c, i) => {
			const f = rawFeatures(c.text);
			f[2] = charRank[i];
			f[3] = wordRank[i];
			return f;
		});
	});
	// Standardising uses no labels, so it may read every text without leaking a left-out answer.
	const d = SURFACE_FEATURES.length;
	const all = matrix.flat();
	for (let j = 0; j < d; j++) {
		const mean = all.reduce((s, f) => s + f[j], 0) / (all.length || 1);
		const sd = Math.sqrt(all.reduce((s, f) => s + (f[j] - mean) ** 2, 0) / (all.length || 1));
		for (const f of all) f[j] = sd > 1e-12 ? (f[j] - mean) / sd : 0;
	}
	return matrix;
}

/** Fixed training settings: the same data always gives the same model. */
const ITERATIONS = 100;
const STEP = 0.5;
const RIDGE = 0.05;

/**
 * A conditional logistic model (one softmax over the candidates of each question) that learns
 * which candidate is `target` in the given questions: full-batch gradient ascent on the mean
 * log-likelihood with a ridge penalty, from zero, for a fixed number of iterations.
 */
function train(x: Float64Array[], target: number[], use: readonly number[]): Float64Array {
	const d = SURFACE_FEATURES.length;
	const w = new Float64Array(d);
	const grad = new Float64Array(d);
	const rows = use.filter((q) => target[q] >= 0);
	if (!rows.length) return w;
	const scores = new Float64Array(64);
	for (let it = 0; it < ITERATIONS; it++) {
		grad.fill(0);
		for (const q of rows) {
			const f = x[q];
			const k = f.length / d;
			let max = -Infinity;
			for (let c = 0; c < k; c++) {
				let s = 0;
				for (let j = 0; j < d; j++) s += w[j] * f[c * d + j];
				scores[c] = s;
				if (s > max) max = s;
			}
			let total = 0;
			for (let c = 0; c < k; c++) total += scores[c] = Math.exp(scores[c] - max);
			for (let c = 0; c < k; c++) {
				const weight = (c === target[q] ? 1 : 0) - scores[c] / total;
				for (let j = 0; j < d; j++) grad[j] += weight * f[c * d + j];
			}
		}
		for (let j = 0; j < d; j++) w[j] += STEP * (grad[j] / rows.length - RIDGE * w[j]);
	}
	return w;
}

/** The share of a hit when the attack's best candidates tie: 1/t if the target is among t. */
function splitHit(scores: readonly number[], target: number, rank = 1): number {
	const sorted = [...scores].sort((a, b) => b - a);
	const cut = sorted[Math.min(rank, sorted.length) - 1];
	const above = scores.filter((s) => s > cut + 1e-9).length;
	const tied = scores.filter((s) => Math.abs(s - cut) <= 1e-9).length;
	const t = scores[target];
	if (t > cut + 1e-9) return 1;
	if (Math.abs(t - cut) > 1e-9) return 0;
	return (rank - above) / tied;
}

/**
 * The classifier reads at most this many questions (evenly spread over the given order), so a
 * study of any size is audited in seconds; "pick the longest" reads them all.
 */
export const CLASSIFIER_AT_MOST = 200;

/** Questions are left out one at a time up to this many; beyond it, in this many folds. */
export const LEAVE_ONE_OUT_UP_TO = 40;
export const FOLDS = 10;

/**
 * Both attacks against every source of the questions. The classifier for a source is trained
 * on the other questions (leave-one-question-out, or 10 folds by question beyond 40 questions)
 * and picks the candidate it scores highest in the left-out question.
 */
export function attackBlinding(questions: readonly AttackQuestion[]): SourceAttack[] {
	const all = questions.filter((q) => q.candidates.length >= 2);
	const usable =
		all.length <= CLASSIFIER_AT_MOST
			? all
			: Array.from(
					{ length: CLASSIFIER_AT_MOST },
					(_, i) => all[Math.floor((i * all.length) / CLASSIFIER_AT_MOST)]
				);
	const x = featureMatrix(usable).map((q) => Float64Array.from(q.flat()));
	const d = SURFACE_FEATURES.length;
	const sources = [...new Set(all.flatMap((q) => q.candidates.map((c) => c.source)))].sort();
	const folds = usable.length <= LEAVE_ONE_OUT_UP_TO ? usable.length : FOLDS;
	return sources.map((source) => {
		let n = 0;
		let chance = 0;
		let twoChance = 0;
		let longest = 0;
		let topTwo = 0;
		for (const q of all) {
			const at = q.candidates.findIndex((c) => c.source === source);
			if (at < 0) continue;
			const lengths = q.candidates.map((c) => c.text.trim().length);
			n++;
			chance += 1 / q.candidates.length;
			twoChance += Math.min(1, 2 / q.candidates.length);
			longest += splitHit(lengths, at);
			topTwo += splitHit(lengths, at, 2);
		}
		const target = usable.map((q) => q.candidates.findIndex((c) => c.source === source));
		let picked = 0;
		let pickedOf = 0;
		let pickedChance = 0;
		usable.forEach((q, i) => {
			if (target[i] < 0) return;
			pickedOf++;
			pickedChance += 1 / q.candidates.length;
		});
		for (let fold = 0; fold < folds; fold++) {
			const held = usable.map((_, i) => i).filter((i) => i % folds === fold && target[i] >= 0);
			if (!held.length) continue;
			const w = train(
				x,
				target,
				usable.map((_, i) => i).filter((i) => i % folds !== fold)
			);
			for (const i of held) {
				const scores = usable[i].candidates.map((_, c) => {
					let s = 0;
					for (let j = 0; j < d; j++) s += w[j] * x[i][c * d + j];
					return s;
				});
				picked += splitHit(scores, target[i]);
			}
		}
		return {
			source,
			longest: pickRate(longest, n, chance),
			topTwo: pickRate(topTwo, n, twoChance),
			classifier: pickRate(picked, pickedOf, pickedChance)
		};
	});
}
