import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cliniq-stats-rankings-'));
});

function file(name: string, text: string) {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

async function run(...argv: string[]) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(['stats', ...argv], {
		stdout: (s) => out.push(s),
		stderr: (s) => err.push(s)
	});
	return { code, out, err, json: () => JSON.parse(out.join('\n')) };
}

// Siegel (1956): 3 executives rank 6 applicants, W = 12·25.5 / (9·210) ≈ 0.1619; and a question
// ranked by one rater only, whose W is undefined.
const SIEGEL = [
	[1, 6, 3, 2, 5, 4],
	[1, 5, 6, 4, 2, 3],
	[6, 3, 2, 5, 4, 1]
];
const RANKINGS =
	'question,rater,candidate,rank\n' +
	SIEGEL.flatMap((ranks, r) =>
		ranks.map((rank, c) => `q1,exec ${r + 1},${'abcdef'[c]},${rank}`)
	).join('\n') +
	'\nq2,exec 1,a,1\nq2,exec 1,b,2\n';

describe('cliniq stats rankings', () => {
	it("prints Kendall's W per question, its mean and the mean pairwise tau-b, with reasons", async () => {
		const r = await run('rankings', file('rankings.csv', RANKINGS));
		expect(r.code).toBe(0);
		expect(r.err).toEqual([]);
		const json = r.json();
		expect(Object.keys(json)).toEqual([
			'questions',
			'kendall_w_by_question',
			'kendall_w_mean',
			'mean_pairwise_tau_b',
			'undefined'
		]);
		expect(json.questions).toBe(2);
		expect(json.kendall_w_by_question.q1).toBeCloseTo(306 / 1890, 12);
		expect(json.kendall_w_by_question.q2).toBeNull();
		expect(json.kendall_w_mean).toBeCloseTo(306 / 1890, 12);
		expect(json.undefined).toEqual({
			kendall_w_by_question: { q2: 'fewer than 2 raters ranked every candidate of this question' }
		});
		expect(typeof json.mean_pairwise_tau_b).toBe('number');
	});

	it('adds reproducible percentile intervals over questions with --bootstrap N --seed S', async () => {
		const path = file('rankings.csv', RANKINGS);
		const a = await run('rankings', path, '--bootstrap', '200', '--seed', 'x');
		const b = await run('rankings', path, '--bootstrap', '200', '--seed', 'x');
		expect(a.code).toBe(0);
		expect(a.out).toEqual(b.out);
		// Only q1 has a W: every resample that draws it gives the same mean.
		const w = 306 / 1890;
		expect(a.json().ci.kendall_w_mean[0]).toBeCloseTo(w, 12);
		expect(a.json().ci.kendall_w_mean[1]).toBeCloseTo(w, 12);
		expect(a.out.join('\n')).toMatch(/"kendall_w_mean": \[[-\d.e]+, [-\d.e]+\]/);
	});

	it('refuses a malformed file with its line number and prints nothing on stdout', async () => {
		const cases: [string, RegExp][] = [
			[
				'question,rater,candidate,rank\nq1,r1,a,1\nq1,r1,b,first\n',
				/bad\.csv line 3: rank "first" is not a number/
			],
			[
				'question,rater,candidate,rank\nq1,r1,a,1\nq1,r1,a,2\n',
				/bad\.csv line 3: rater "r1" ranked candidate "a" of question "q1" already on line 2/
			],
			['question,rater,rank\nq1,r1,1\n', /bad\.csv line 1: .*missing: candidate/],
			[
				'question,rater,candidate,rank\nq1,r1,a\n',
				/bad\.csv line 2: 3 fields, but the header has 4/
			]
		];
		for (const [text, message] of cases) {
			const r = await run('rankings', file('bad.csv', text));
			expect(r.code).toBe(2);
			expect(r.out).toEqual([]);
			expect(r.err.join('\n')).toMatch(message);
		}
		const r = await run('rankings', file('ok.csv', RANKINGS), '--bootstrap', '10');
		expect(r.code).toBe(2);
		expect(r.err.join('\n')).toMatch(/--bootstrap needs --seed/);
	});
});

describe('cliniq stats correlate', () => {
	it("prints n, Pearson, Spearman and tau-b (Wikipedia's IQ / TV example: rho = −29/165)", async () => {
		const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
		const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
		const r = await run(
			'correlate',
			file('iq.csv', 'x,y\n' + iq.map((x, i) => `${x},${tv[i]}`).join('\n') + '\n')
		);
		expect(r.code).toBe(0);
		const json = r.json();
		expect(Object.keys(json)).toEqual(['n', 'pearson', 'spearman', 'kendall_tau_b']);
		expect(json.n).toBe(10);
		expect(json.spearman).toBeCloseTo(-29 / 165, 12);
	});

	it('prints null with the reason when a column has no variance', async () => {
		const r = await run('correlate', file('flat.csv', 'x,y\n1,5\n2,5\n3,5\n'));
		expect(r.code).toBe(0);
		expect(r.json()).toEqual({
			n: 3,
			pearson: null,
			spearman: null,
			kendall_tau_b: null,
			undefined: {
				pearson: 'y has no variance',
				spearman: 'y has all values tied',
				kendall_tau_b: 'y has all values tied'
			}
		});
	});

	it('refuses a value that is not a number, naming the line', async () => {
		const r = await run('correlate', file('bad.csv', 'x,y\n1,2\n3,n/a\n'));
		expect(r.code).toBe(2);
		expect(r.out).toEqual([]);
		expect(r.err.join('\n')).toMatch(/bad\.csv line 3: y "n\/a" is not a number/);
	});
});

describe('cliniq stats pairwise', () => {
	it('prints the pairs, their kinds and the accuracy (hand-worked: 3.5 / 5)', async () => {
		const csv = `question,candidate,expert_rank,metric
q1,A,1,0.9
q1,B,2,0.5
q1,C,3,0.5
q2,X,1,0.1
q2,Y,1,0.8
q2,Z,2,0.3
`;
		const r = await run('pairwise', file('pairs.csv', csv));
		expect(r.code).toBe(0);
		expect(r.json()).toEqual({
			pairs: 5,
			concordant: 3,
			discordant: 1,
			metric_ties: 1,
			accuracy: 0.7
		});
	});

	it('explains an undefined accuracy and refuses a candidate given twice', async () => {
		let r = await run(
			'pairwise',
			file('tied.csv', 'question,candidate,expert_rank,metric\nq,A,1,1\nq,B,1,2\n')
		);
		expect(r.json()).toMatchObject({
			pairs: 0,
			accuracy: null,
			undefined: { accuracy: 'no pair of candidates of a question has different expert ranks' }
		});
		r = await run(
			'pairwise',
			file('bad.csv', 'question,candidate,expert_rank,metric\nq,A,1,1\nq,A,2,2\n')
		);
		expect(r.code).toBe(2);
		expect(r.out).toEqual([]);
		expect(r.err.join('\n')).toMatch(
			/bad\.csv line 3: candidate "A" of question "q" is already on line 2/
		);
	});
});
