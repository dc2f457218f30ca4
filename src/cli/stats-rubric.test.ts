import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cliniq-rubric-'));
});

function file(name: string, text: string) {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

async function run(...argv: string[]) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(['stats', 'rubric', ...argv], {
		stdout: (s) => out.push(s),
		stderr: (s) => err.push(s)
	});
	return { code, err, json: () => JSON.parse(out.join('\n')) };
}

// Two questions, two answers each (m1 on the left, m2 on the right), two physicians per question.
// ACC (aspect A): q1 a ann 4, bob 5; b ann 2, bob 2; q2 c zed 3, amy 4; d zed 1, amy 1.
// SAF (aspect B): only the first physician of each question, 3 everywhere.
// zed submitted before amy, so zed is slot 1 of q2 (by name amy would be: the ICC would differ).
const SCORES = [
	'question_id,candidate_id,model,physician,aspect,sub_aspect,score,side,display_position,submitted_at',
	'q1,a,m1,ann,A,ACC,4,left,1,2026-01-01T10:00:00Z',
	'q1,b,m2,ann,A,ACC,2,right,2,2026-01-01T10:00:00Z',
	'q1,a,m1,ann,B,SAF,3,left,1,2026-01-01T10:00:00Z',
	'q1,b,m2,ann,B,SAF,3,right,2,2026-01-01T10:00:00Z',
	'q1,a,m1,bob,A,ACC,5,left,1,2026-01-01T11:00:00Z',
	'q1,b,m2,bob,A,ACC,2,right,2,2026-01-01T11:00:00Z',
	'q2,c,m1,zed,A,ACC,3,left,1,2026-01-01T09:00:00Z',
	'q2,d,m2,zed,A,ACC,1,right,2,2026-01-01T09:00:00Z',
	'q2,c,m1,zed,B,SAF,3,left,1,2026-01-01T09:00:00Z',
	'q2,d,m2,zed,B,SAF,3,right,2,2026-01-01T09:00:00Z',
	'q2,c,m1,amy,A,ACC,4,left,1,2026-01-01T12:00:00Z',
	'q2,d,m2,amy,A,ACC,1,right,2,2026-01-01T12:00:00Z'
].join('\n');

// J scores answers as a whole; K scores ACC only (so it has no overall value).
const JUDGES = [
	'judge,question_id,candidate_id,criterion,score',
	'J,q1,a,overall,0.9',
	'J,q1,b,overall,0.2',
	'J,q2,c,overall,0.6',
	'J,q2,d,overall,0.1',
	'K,q1,a,ACC,5',
	'K,q1,b,ACC,1',
	'K,q2,c,ACC,2',
	'K,q2,d,ACC,3'
].join('\n');

describe('cliniq stats rubric', () => {
	it('prints agreement, model means, distributions and position bias, computed by hand', async () => {
		const r = await run(file('scores.csv', SCORES), '--scale', '0-5');
		expect(r.err).toEqual([]);
		expect(r.code).toBe(0);
		const out = r.json();
		expect(out).toMatchObject({ scores: 12, sheets: 4, questions: 2, physicians: 4 });
		expect(out.shape).toEqual({
			aspects: [
				{ code: 'A', subAspects: ['ACC'] },
				{ code: 'B', subAspects: ['SAF'] }
			],
			scale: { min: 0, max: 5 }
		});
		const acc = out.agreement.find((a: { key: string }) => a.key === 'ACC');
		// Slots: slot 1 = ann, zed: 4, 2, 3, 1; slot 2 = bob, amy: 5, 2, 4, 1. n = 4, k = 2,
		// grand mean 2.75; row means 4.5, 2, 3.5, 1 → SSR 14.5, MSR 14.5/3; slot means 2.5, 3 →
		// MSC 0.5; SST 15.5, SSE 0.5, MSE 0.5/3. ICC(2,1) = (14/3)/(31/6) = 28/31;
		// ICC(2,k) = (14/3)/(59/12) = 56/59.
		expect(acc.icc2_1).toBeCloseTo(28 / 31, 12);
		expect(acc.icc2_k).toBeCloseTo(56 / 59, 12);
		// QWK: observed mean (i−j)² = (1 + 0 + 1 + 0)/4 = 0.5; expected over the 16 slot-1 × slot-2
		// pairs 64/16 = 4 → 1 − 0.5/4 = 0.875.
		expect(acc.qwk).toBeCloseTo(0.875, 12);
		// Interval alpha on the 4 ids: within answers Σ ordered (v−v')² = 2 + 0 + 2 + 0 = 4; over all
		// 8 values Σ_{i≠j} (vi−vj)² = 2·8·15.5 = 248 → 1 − 7·4/248 = 55/62.
		expect(acc.alpha_interval).toBeCloseTo(55 / 62, 12);
		expect(acc).toMatchObject({ kind: 'sub_aspect', units: 4, raters: 4, slots: 2 });
		expect(acc.notes).toMatch(/rater slot/);
		expect(acc.ci).toBeUndefined();
		// The aspect A is ACC alone: the same figures.
		const a = out.agreement.find((x: { key: string }) => x.key === 'A');
		expect(a.icc2_1).toBeCloseTo(28 / 31, 12);
		// SAF has one physician per question: null with the reason, never 0.
		const saf = out.agreement.find((x: { key: string }) => x.key === 'SAF');
		expect(saf.qwk).toBeNull();
		expect(saf.undefined.qwk).toBe('quadratic-weighted kappa needs exactly 2 rater slots; found 1');
		expect(saf.icc2_1).toBeNull();
		expect(saf.undefined.icc2_1).toMatch(/needs at least 2 raters/);

		// Answer means on ACC: a 4.5, b 2, c 3.5, d 1 → m1 (a, c) 4, m2 (b, d) 1.5.
		const mean = (model: string, key: string) =>
			out.models.find((m: { model: string; key: string }) => m.model === model && m.key === key);
		expect(mean('m1', 'ACC')).toMatchObject({ n: 2, mean: 4 });
		expect(mean('m2', 'ACC')).toMatchObject({ n: 2, mean: 1.5 });
		expect(mean('m1', 'SAF')).toMatchObject({ n: 2, mean: 3 });

		// ACC levels: 1 ×2 (d), 2 ×2 (b), 3 ×1, 4 ×2, 5 ×1.
		expect(
			out.distributions.find(
				(d: { key: string; model: string }) => d.key === 'ACC' && d.model === 'all'
			)
		).toEqual({
			key: 'ACC',
			model: 'all',
			counts: { 0: 0, 1: 2, 2: 2, 3: 1, 4: 2, 5: 1 },
			off_scale: 0
		});

		// Left − right per physician and sub-aspect: ACC ann 2, bob 3, zed 2, amy 3; SAF ann 0, zed 0.
		// Overall: 6 pairs, (2 + 3 + 2 + 3 + 0 + 0)/6 = 5/3, 4 left higher, 2 ties.
		const [overall, ...perKey] = out.position_bias;
		expect(overall).toMatchObject({
			key: 'overall',
			pairs: 6,
			left_higher: 4,
			right_higher: 0,
			ties: 2
		});
		expect(overall.mean_difference).toBeCloseTo(5 / 3, 12);
		expect(perKey.find((p: { key: string }) => p.key === 'ACC').mean_difference).toBe(2.5);
		expect(out.judges).toEqual([]);
		expect(out.bootstrap).toBeNull();
	});

	it('ranks the judges against the physicians, and says why a judge has no overall value', async () => {
		const r = await run(
			file('scores2.csv', SCORES),
			'--judges',
			file('judges.csv', JUDGES),
			'--bootstrap',
			'200',
			'--seed',
			's1'
		);
		expect(r.err).toEqual([]);
		const out = r.json();
		const get = (judge: string, key: string) =>
			out.judges.find((j: { judge: string; key: string }) => j.judge === judge && j.key === key);
		// Overall physician means (ann's and zed's only: bob and amy scored no SAF): a (4+3)/2 = 3.5,
		// b 2.5, c 3, d 2. J: q1 a > b ✓, q2 c > d ✓ → 2 of 2 pairs. x 0.9, 0.2, 0.6, 0.1 (mean 0.45),
		// y 3.5, 2.5, 3, 2 (mean 2.75): Σdxdy 0.7, Σdx² 0.41, Σdy² 1.25 → r = 0.7/√(0.41·1.25).
		expect(get('J', 'overall')).toMatchObject({ answers: 4, pairs: 2, pairwise_accuracy: 1 });
		expect(get('J', 'overall').pearson).toBeCloseTo(0.7 / Math.sqrt(0.41 * 1.25), 12);
		// K on ACC (means a 4.5, b 2, c 3.5, d 1): q1 5 > 1 ✓, q2 2 < 3 ✗ → 0.5.
		expect(get('K', 'ACC')).toMatchObject({ answers: 4, pairs: 2, pairwise_accuracy: 0.5 });
		expect(get('K', 'overall').pairwise_accuracy).toBeNull();
		expect(get('K', 'overall').undefined.pairwise_accuracy).toBeTypeOf('string');
		expect(out.judge_ranking).toEqual(['J', 'K']);
		// With --bootstrap every figure has its interval, or the reason it has none.
		const [lo, hi] = get('K', 'ACC').ci.pairwise_accuracy;
		expect(lo).toBeLessThanOrEqual(0.5);
		expect(hi).toBeGreaterThanOrEqual(0.5);
		expect(out.bootstrap).toEqual({ resamples: 200, seed: 's1' });
	});

	it('takes the scale from the scores when --scale is absent', async () => {
		const out = (await run(file('scores3.csv', SCORES))).json();
		expect(out.shape.scale).toEqual({ min: 1, max: 5 });
	});

	it('refuses a repeated score and an unknown criterion, naming the line', async () => {
		const twice = await run(file('twice.csv', SCORES + '\nq1,a,m1,ann,A,ACC,3,left,1,x'));
		expect(twice.code).toBe(2);
		expect(twice.err.join('')).toMatch(/twice\.csv line 14: a second score/);
		const bad = await run(
			file('scores4.csv', SCORES),
			'--judges',
			file('bad-judges.csv', JUDGES + '\nJ,q1,a,XYZ,1')
		);
		expect(bad.code).toBe(2);
		expect(bad.err.join('')).toMatch(/line 10: criterion "XYZ"/);
	});
});
