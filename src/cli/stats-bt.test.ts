import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cliniq-bt-'));
});

function file(name: string, text: string) {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

async function run(...argv: string[]) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(['stats', 'bt', ...argv], {
		stdout: (s) => out.push(s),
		stderr: (s) => err.push(s)
	});
	return { code, err, out, json: () => JSON.parse(out.join('\n')) };
}

// A chain worked by hand: A beats B 3 : 1 (two wins, one of them as model_b, and its halves of
// two ties, one of each kind, against B's two halves), B beats C 3 : 1, A and C never meet. Each link's rating difference is 400·log10 3;
// centred, A = 1000 + 400·log10 3, B = 1000, C = 1000 − 400·log10 3.
const CHAIN = [
	'question,model_a,model_b,winner',
	'q1,A,B,model_a',
	'q3,B,A,model_b',
	'q4,A,B,tie',
	'q5,B,A,tie (bothbad)',
	'q6,B,C,model_a',
	'q7,B,C,model_a',
	'q8,C,B,model_b',
	'q9,B,C,model_b'
].join('\n');

describe('cliniq stats bt', () => {
	it('prints FastChat Bradley–Terry ratings of a 3-model example computed by hand', async () => {
		const r = await run(file('chain.csv', CHAIN));
		expect(r.err).toEqual([]);
		expect(r.code).toBe(0);
		const out = r.json();
		expect(out).toMatchObject({ battles: 8, questions: 8, models: ['A', 'B', 'C'] });
		const d = 400 * Math.log10(3);
		expect(out.ratings.A).toBeCloseTo(1000 + d, 9);
		expect(out.ratings.B).toBeCloseTo(1000, 9);
		expect(out.ratings.C).toBeCloseTo(1000 - d, 9);
		expect(out.undefined).toBeUndefined();
		expect(out.ci).toBeUndefined();
		expect(out.style_controlled).toBeUndefined();
	});

	it('says why a model that won everything has no rating', async () => {
		const r = await run(file('top.csv', `${CHAIN}\nq10,Top,A,model_a\nq11,C,Top,model_b`));
		const out = r.json();
		expect(out.ratings.Top).toBeNull();
		expect(out.undefined.ratings.Top).toMatch(/Top won every comparison/);
		expect(out.ratings.B).toBeCloseTo(1000, 9);
	});

	it('gives bootstrap intervals and rank ranges that repeat with the seed', async () => {
		const lines = ['question,model_a,model_b,winner'];
		const outcomes = ['model_a', 'model_a', 'model_b', 'tie'];
		for (let q = 0; q < 40; q++) {
			lines.push(`q${q},A,B,${outcomes[q % 4]}`);
			lines.push(`q${q},B,C,${outcomes[(q + 1) % 4]}`);
			lines.push(`q${q},A,C,${outcomes[(q + 2) % 4]}`);
		}
		const path = file('boot.csv', lines.join('\n'));
		const one = await run(path, '--bootstrap', '200', '--seed', 's1');
		expect(one.code).toBe(0);
		const out = one.json();
		expect(out.questions).toBe(40);
		for (const m of ['A', 'B', 'C']) {
			const [low, high] = out.ci.ratings[m];
			expect(low).toBeLessThanOrEqual(out.ratings[m]);
			expect(high).toBeGreaterThanOrEqual(out.ratings[m]);
			const [best, worst] = out.rank_ranges[m];
			expect(best).toBeLessThanOrEqual(worst);
		}
		expect(out.bootstrap).toEqual({ resamples: 200, seed: 's1' });
		expect((await run(path, '--bootstrap', '200', '--seed', 's1')).out).toEqual(one.out);
		expect((await run(path, '--bootstrap', '200', '--seed', 's2')).json().ci).not.toEqual(out.ci);
	});

	it('adds the length-controlled ratings when the lengths are given', async () => {
		// Equal lengths everywhere: no length effect can be estimated, the ratings are the plain ones.
		const flat = CHAIN.split('\n')
			.map((l, i) => (i === 0 ? `${l},length_a,length_b` : `${l},120,120`))
			.join('\n');
		const out = (await run(file('flat.csv', flat))).json();
		for (const m of ['A', 'B', 'C'])
			expect(out.style_controlled.ratings[m]).toBeCloseTo(out.ratings[m], 9);
		expect(out.style_controlled.length_coefficient).toBeNull();
		expect(out.style_controlled.undefined.length_coefficient).toMatch(/same in every battle/);

		// The longer answer won every battle that was not a tie here:
		// a positive length coefficient.
		const lengths = [
			'300,100',
			'100,310',
			'200,200',
			'150,140',
			'400,100',
			'350,120',
			'90,330',
			'100,250'
		];
		const long = CHAIN.split('\n')
			.map((l, i) => (i === 0 ? `${l},length_a,length_b` : `${l},${lengths[i - 1]}`))
			.join('\n');
		const boot = (await run(file('long.csv', long), '--bootstrap', '50', '--seed', 'x')).json();
		expect(boot.style_controlled.length_coefficient).toBeGreaterThan(0);
		expect(boot.style_controlled.ci.length_coefficient).toHaveLength(2);
		expect(Object.keys(boot.style_controlled.ci.ratings)).toEqual(['A', 'B', 'C']);
	});

	it.each([
		[
			'missing column',
			'question,model_a,model_b\nq1,A,B',
			/line 1: the header must contain .*missing: winner/
		],
		[
			'unknown winner',
			'question,model_a,model_b,winner\nq1,A,B,model_a\nq2,A,B,draw',
			/line 3: winner "draw" is not one of model_a, model_b, tie, tie \(bothbad\)/
		],
		[
			'model against itself',
			'question,model_a,model_b,winner\nq1,A,A,tie',
			/line 2: model_a and model_b are both "A"/
		],
		['empty field', 'question,model_a,model_b,winner\nq1,,B,tie', /line 2: model_a is empty/],
		[
			'bad length',
			'question,model_a,model_b,winner,length_a,length_b\nq1,A,B,tie,12,-3',
			/line 2: length_b "-3" is not a length ≥ 0/
		],
		[
			'one length column',
			'question,model_a,model_b,winner,length_a\nq1,A,B,tie,12',
			/give both length_a and length_b/
		],
		['no battles', 'question,model_a,model_b,winner\n', /has no battles/]
	])('refuses a file with a %s on stderr, exit 2', async (what, text, message) => {
		const r = await run(file(`bad-${what.replace(/ /g, '-')}.csv`, text));
		expect(r.code).toBe(2);
		expect(r.out).toEqual([]);
		expect(r.err.join('\n')).toMatch(message);
	});

	it('refuses --bootstrap without --seed', async () => {
		const r = await run(file('seedless.csv', CHAIN), '--bootstrap', '10');
		expect(r.code).toBe(2);
		expect(r.err.join('\n')).toMatch(/--bootstrap needs --seed/);
	});
});
