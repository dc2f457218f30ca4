import { describe, expect, it } from 'vitest';
import { dawidSkene, type AnnotatorLabel } from './annotators';

// Table 1 of Dawid & Skene (1979), Applied Statistics 28(1):20–28: 45 patients, 5 anaesthetists,
// a 4-point scale; observer 1 rated every patient 3 times. One string per patient: observer 1's
// three ratings, then observers 2–5. Transcribed as in the `anesthesia` data set of the R package
// rater (Pullin, Vukcevic & Saxhaug) and the `generate_sample_data()` table of
// github.com/dallascard/dawid_skene, which agree.
const TABLE_1 = [
	'1111111',
	'3334334',
	'1122122',
	'2223121',
	'2223222',
	'2223322',
	'1222111',
	'3333433',
	'2222223',
	'2322223',
	'4444444',
	'2223343',
	'1111111',
	'2223212',
	'1211111',
	'1112111',
	'1111111',
	'1111111',
	'2222221',
	'2221322',
	'2222222',
	'2222221',
	'2223222',
	'2212222',
	'1111111',
	'1111111',
	'2322222',
	'1111111',
	'1111111',
	'1121121',
	'1111111',
	'3333233',
	'1111111',
	'2222222',
	'2223232',
	'4334343',
	'2212232',
	'2323233',
	'3333432',
	'1111111',
	'1111111',
	'1212111',
	'2322222',
	'1211111',
	'2222222'
];
const OBSERVER = [1, 1, 1, 2, 3, 4, 5];
const anaesthesia: AnnotatorLabel[] = TABLE_1.flatMap((row, i) =>
	[...row].map((label, c) => ({
		item: `p${String(i + 1).padStart(2, '0')}`,
		annotator: `o${OBSERVER[c]}`,
		label
	}))
);

/** The marginal log-likelihood of the model (paper eq. 2.7), written here independently. */
function logLikelihood(priors: number[], rates: number[][][]): number {
	let total = 0;
	TABLE_1.forEach((row) => {
		let item = 0;
		priors.forEach((pj, j) => {
			let q = pj;
			[...row].forEach((label, c) => (q *= rates[OBSERVER[c] - 1][j][Number(label) - 1]));
			item += q;
		});
		total += Math.log(item);
	});
	return total;
}

describe('dawidSkene on Dawid & Skene (1979) Table 1', () => {
	const fit = dawidSkene(anaesthesia);
	if (!fit.ok) throw new Error(fit.reason);

	it('finds the maximum-likelihood estimate an independent implementation finds', () => {
		// An independent dense-array EM in NumPy (run once outside the repository: the paper's eqs 2.3–2.5,
		// the same majority-vote start) reaches, after 14 iterations, log L = −193.97463953577557,
		// p = (0.3997109049846059, 0.4669597778366406, 0.11110730572340846, 0.0222220114553451)
		// and competences Σ p_j π_jj of 0.8889717347401448, 0.6891510417276565,
		// 0.8219369325945309, 0.8441736607014653, 0.799706678063149.
		expect(fit.converged).toBe(true);
		expect(fit.logLikelihood).toBeCloseTo(-193.97463953577557, 8);
		const want = [0.3997109049846059, 0.4669597778366406, 0.11110730572340846, 0.0222220114553451];
		fit.priors.forEach((p, j) => expect(p).toBeCloseTo(want[j], 8));
		const competence = [
			0.8889717347401448, 0.6891510417276565, 0.8219369325945309, 0.8441736607014653,
			0.799706678063149
		];
		fit.annotators.forEach((a, k) => expect(a.competence.value).toBeCloseTo(competence[k], 8));
		// Observer 1's error rates, row by row, as the independent run printed them (12 places).
		const o1 = [
			[0.889279076456, 0.110720923544, 0, 0],
			[0.063668525989, 0.872870663914, 0.063460810097, 0],
			[0, 0, 0.933329153056, 0.066670846944],
			[0, 0, 0, 1]
		];
		fit.annotators[0].errorRates.forEach((row, j) =>
			row.forEach((v, l) => expect(v).toBeCloseTo(o1[j][l], 10))
		);
		expect(fit.annotators.map((a) => a.n)).toEqual([135, 45, 45, 45, 45]);
	});

	it('is a stationary point of the likelihood: no small move along the simplex raises it', () => {
		const base = logLikelihood(
			fit.priors,
			fit.annotators.map((a) => a.errorRates)
		);
		expect(base).toBeCloseTo(fit.logLikelihood, 9);
		const h = 1e-6;
		// Move mass between two positive entries of one row; the derivative must vanish.
		for (const [k, j] of [
			[0, 1],
			[1, 1],
			[3, 2],
			[4, 1]
		] as const) {
			const rates = fit.annotators.map((a) => a.errorRates.map((r) => [...r]));
			const row = rates[k][j];
			const [a, b] = row.flatMap((v, l) => (v > 0.01 ? [l] : [])).slice(0, 2);
			row[a] += h;
			row[b] -= h;
			const up = logLikelihood(fit.priors, rates);
			row[a] -= 2 * h;
			row[b] += 2 * h;
			const down = logLikelihood(fit.priors, rates);
			expect(Math.abs((up - down) / (2 * h))).toBeLessThan(1e-4);
		}
		const priors = [...fit.priors];
		priors[0] += h;
		priors[1] -= h;
		const up = logLikelihood(
			priors,
			fit.annotators.map((a) => a.errorRates)
		);
		expect(up).toBeLessThanOrEqual(base + 1e-9);
	});

	it('gives every row of every error-rate matrix and every posterior a sum of 1', () => {
		for (const a of fit.annotators)
			for (const row of a.errorRates) expect(row.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
		for (const row of fit.posteriors) expect(row.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
	});

	it('is reproducible to the last digit and independent of input order', () => {
		const again = dawidSkene([...anaesthesia].reverse());
		expect(again).toEqual(fit);
	});
});

describe('dawidSkene, a case worked by hand', () => {
	// Two annotators who never err (A, B) and a third (C) who labels 2 of 10 items wrongly. With A
	// and B certain, every item's posterior is the majority (a class A and B exclude has likelihood
	// 0), so C's error rates are C's counts against the truth: 4 items of class x, C says y on 1;
	// 6 of class y, C says x on 1. Priors 0.4 / 0.6; C's competence 0.4·3/4 + 0.6·5/6 = 0.8.
	const truth = ['x', 'x', 'x', 'x', 'y', 'y', 'y', 'y', 'y', 'y'];
	const c = ['x', 'x', 'x', 'y', 'x', 'y', 'y', 'y', 'y', 'y'];
	const labels: AnnotatorLabel[] = truth.flatMap((t, i) => [
		{ item: `i${i}`, annotator: 'A', label: t },
		{ item: `i${i}`, annotator: 'B', label: t },
		{ item: `i${i}`, annotator: 'C', label: c[i] }
	]);
	it('recovers the counts', () => {
		const fit = dawidSkene(labels);
		if (!fit.ok) throw new Error(fit.reason);
		expect(fit.priors[0]).toBeCloseTo(0.4, 12);
		expect(fit.annotators[2].errorRates[0]).toEqual([0.75, 0.25]);
		expect(fit.annotators[2].errorRates[1][0]).toBeCloseTo(1 / 6, 12);
		expect(fit.annotators[2].competence.value).toBeCloseTo(0.8, 12);
		expect(fit.annotators[0].competence.value).toBeCloseTo(1, 12);
	});
});

describe('dawidSkene, undefined cases', () => {
	it('says why', () => {
		const one = [
			{ item: 'a', annotator: 'A', label: 'x' },
			{ item: 'a', annotator: 'A', label: 'y' }
		];
		expect(dawidSkene(one)).toEqual({ ok: false, reason: 'needs at least 2 annotators; found 1' });
		const oneClass = [
			{ item: 'a', annotator: 'A', label: 'x' },
			{ item: 'a', annotator: 'B', label: 'x' }
		];
		expect(dawidSkene(oneClass)).toEqual({
			ok: false,
			reason: 'needs at least 2 categories; found 1'
		});
		const apart = [
			{ item: 'a', annotator: 'A', label: 'x' },
			{ item: 'b', annotator: 'B', label: 'y' }
		];
		expect(dawidSkene(apart)).toEqual({
			ok: false,
			reason: 'no item was labelled by 2 different annotators'
		});
	});
	it('marks competence undefined when the iteration cap stops EM', () => {
		const fit = dawidSkene(anaesthesia, { maxIterations: 2 });
		if (!fit.ok) throw new Error(fit.reason);
		expect(fit.converged).toBe(false);
		expect(fit.annotators[0].competence).toEqual({
			value: null,
			reason: 'EM did not converge in 2 iterations'
		});
	});
});
