import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';

function capture() {
	const out: string[] = [];
	const err: string[] = [];
	return {
		io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) },
		out,
		err
	};
}

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cliniq-stats-'));
});

function file(name: string, text: string) {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

async function run(...argv: string[]) {
	const c = capture();
	const code = await main(['stats', ...argv], c.io);
	return { code, out: c.out, err: c.err, json: () => JSON.parse(c.out.join('\n')) };
}

// Krippendorff (2011): 4 observers × 12 units with missing values, in long form.
const KRIPPENDORFF_2011 = (() => {
	const observers: Record<string, (number | null)[]> = {
		A: [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
		B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
		C: [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
		D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null]
	};
	const lines = ['unit,rater,value'];
	for (const [rater, values] of Object.entries(observers))
		values.forEach((v, u) => v !== null && lines.push(`unit ${u + 1},${rater},${v}`));
	return lines.join('\n') + '\n';
})();

const KEYS = [
	'units',
	'raters',
	'pairable_units',
	'percent_agreement',
	'cohen_kappa',
	'weighted_kappa_linear',
	'weighted_kappa_quadratic',
	'fleiss_kappa',
	'alpha_nominal',
	'alpha_ordinal',
	'alpha_interval',
	'icc2_1',
	'icc2_k'
];

describe('cliniq stats ratings', () => {
	it('prints every key for four raters with gaps, and why the two-rater and complete-unit ones are undefined', async () => {
		const r = await run('ratings', file('kripp.csv', KRIPPENDORFF_2011));
		expect(r.code).toBe(0);
		expect(r.err).toEqual([]);
		const out = r.json();
		expect(Object.keys(out)).toEqual([...KEYS, 'undefined']);
		expect(out.units).toBe(12);
		expect(out.raters).toBe(4);
		expect(out.pairable_units).toBe(11);
		expect(out.alpha_nominal).toBeCloseTo(0.743, 3);
		expect(out.alpha_ordinal).toBeCloseTo(0.815, 3);
		expect(out.alpha_interval).toBeCloseTo(0.849, 3);
		// Units 1, 10, 11, 12 lack a rater; the other 8 are complete.
		expect(out.fleiss_kappa).toBeTypeOf('number');
		expect(out.icc2_1).toBeTypeOf('number');
		expect(out.icc2_k).toBeGreaterThan(out.icc2_1);
		expect(out.percent_agreement).toBeGreaterThan(0.5);
		expect(out.cohen_kappa).toBeNull();
		expect(out.undefined).toEqual({
			cohen_kappa: 'needs exactly 2 raters; found 4',
			weighted_kappa_linear: 'needs exactly 2 raters; found 4',
			weighted_kappa_quadratic: 'needs exactly 2 raters; found 4'
		});
	});

	it('gives Cohen’s and weighted kappa for two raters and reads --order for word categories', async () => {
		const rows = [
			['1', 'low', 'low'],
			['2', 'mid', 'high'],
			['3', 'high', 'high'],
			['4', 'mid', 'mid'],
			['5', 'low', 'mid']
		];
		const text =
			'unit,rater,value\n' + rows.map(([u, a, b]) => `${u},A,${a}\n${u},B,${b}`).join('\n');
		const path = file('two.csv', text);
		const plain = (await run('ratings', path)).json();
		expect(plain.cohen_kappa).toBeTypeOf('number');
		expect(plain.weighted_kappa_linear).toBeNull();
		expect(plain.undefined.weighted_kappa_linear).toMatch(/needs a category order/);
		expect(plain.undefined.icc2_1).toBe('values are not all numbers');

		const ordered = (await run('ratings', path, '--order', 'low,mid,high')).json();
		// The same data as 1/2/3: disagreements are all one step, so linear kappa here equals
		// the weighted kappa of the numeric file below.
		const numeric = file(
			'two-numeric.csv',
			text.replaceAll('low', '1').replaceAll('mid', '2').replaceAll('high', '3')
		);
		const byNumber = (await run('ratings', numeric)).json();
		expect(ordered.weighted_kappa_linear).toBeCloseTo(byNumber.weighted_kappa_linear, 12);
		expect(ordered.weighted_kappa_quadratic).toBeCloseTo(byNumber.weighted_kappa_quadratic, 12);
		expect(ordered.alpha_ordinal).toBeCloseTo(byNumber.alpha_ordinal, 12);
		expect(ordered.cohen_kappa).toBeCloseTo(plain.cohen_kappa, 12);
		expect(byNumber.icc2_1).toBeTypeOf('number');
	});

	it('--level nominal leaves ordinal and interval statistics undefined, saying so', async () => {
		const out = (
			await run('ratings', file('kripp-nominal.csv', KRIPPENDORFF_2011), '--level', 'nominal')
		).json();
		expect(out.alpha_nominal).toBeCloseTo(0.743, 3);
		expect(out.alpha_interval).toBeNull();
		expect(out.undefined.alpha_interval).toBe(
			'the ratings are declared nominal; this statistic needs interval data'
		);
		expect(out.undefined.alpha_ordinal).toBe(
			'the ratings are declared nominal; this statistic needs ordinal data'
		);
	});

	it('--bootstrap N --seed S adds a 95 % interval per key, the same for the same seed', async () => {
		const path = file('kripp-ci.csv', KRIPPENDORFF_2011);
		const a = await run('ratings', path, '--bootstrap', '200', '--seed', 'study-1');
		expect(a.code).toBe(0);
		const out = a.json();
		expect(Object.keys(out.ci)).toEqual(KEYS.slice(3));
		for (const key of ['alpha_nominal', 'alpha_interval', 'fleiss_kappa', 'icc2_1']) {
			const [low, high] = out.ci[key];
			expect(low, key).toBeLessThanOrEqual(out[key]);
			expect(high, key).toBeGreaterThanOrEqual(out[key]);
		}
		// Cohen's kappa is undefined for four raters: no interval either.
		expect(out.ci.cohen_kappa).toBeNull();
		expect(out.ci_undefined.cohen_kappa).toBe('the statistic is undefined on the data');
		// Pairs print on one line.
		expect(a.out.join('\n')).toMatch(/"alpha_nominal": \[-?[\d.]+(e-?\d+)?, [\d.]+\]/);
		const again = await run('ratings', path, '--bootstrap', '200', '--seed', 'study-1');
		expect(again.out).toEqual(a.out);
		const other = await run('ratings', path, '--bootstrap', '200', '--seed', 'study-2');
		expect(other.json().ci).not.toEqual(out.ci);
	});

	it('refuses --bootstrap without --seed and a bad --level, printing nothing on stdout', async () => {
		const path = file('kripp-args.csv', KRIPPENDORFF_2011);
		const noSeed = await run('ratings', path, '--bootstrap', '100');
		expect(noSeed.code).toBe(2);
		expect(noSeed.out).toEqual([]);
		expect(noSeed.err.join('\n')).toMatch(/--bootstrap needs --seed/);
		const level = await run('ratings', path, '--level', 'ratio');
		expect(level.code).toBe(2);
		expect(level.out).toEqual([]);
		expect(level.err.join('\n')).toMatch(/--level must be one of nominal, ordinal, interval/);
	});
});

describe('cliniq stats on a malformed file names the line and prints nothing on stdout', () => {
	const cases: [string, string, string[], RegExp][] = [
		[
			'a header without the value column',
			'unit,rater,score\nu1,A,1\n',
			[],
			/bad\.csv line 1: the header must contain the columns unit, rater, value; missing: value/
		],
		[
			'a line with too few fields',
			'unit,rater,value\nu1,A,1\nu1,B\n',
			[],
			/bad\.csv line 3: 2 fields, but the header has 3/
		],
		[
			'a non-numeric value among numbers (ICC and interval alpha need numbers)',
			'unit,rater,value\nu1,A,1\nu1,B,2\nu2,A,n/a\nu2,B,3\n',
			[],
			/bad\.csv line 4: value "n\/a" is not a number, though most values are/
		],
		[
			'a non-numeric value with --level interval',
			'unit,rater,value\nu1,A,1\nu1,B,two\n',
			['--level', 'interval'],
			/bad\.csv line 3: value "two" is not a number \(--level interval needs numbers\)/
		],
		[
			'a line after a quoted field spanning two lines',
			'unit,rater,value\n"u\n1",A,1\nu1,B\n',
			[],
			/bad\.csv line 4: 2 fields, but the header has 3/
		],
		[
			'a rater rating the same unit twice',
			'unit,rater,value\nu1,A,1\nu1,B,2\nu1,A,3\n',
			[],
			/bad\.csv line 4: rater "A" already rated unit "u1" on line 2/
		],
		[
			'a value outside --order',
			'unit,rater,value\nu1,A,low\nu1,B,huge\n',
			['--order', 'low,high'],
			/bad\.csv line 3: value "huge" is not in --order/
		],
		['an empty file', '', [], /bad\.csv is empty: it needs a header row/]
	];
	for (const [what, text, options, message] of cases) {
		it(what, async () => {
			const r = await run('ratings', file('bad.csv', text), ...options);
			expect(r.code).toBe(2);
			expect(r.out).toEqual([]);
			expect(r.err.join('\n')).toMatch(message);
		});
	}

	it('a file that does not exist', async () => {
		const r = await run('ratings', join(dir, 'missing.csv'));
		expect(r.code).toBe(2);
		expect(r.out).toEqual([]);
		expect(r.err.join('\n')).toMatch(/Cannot read .*missing\.csv: ENOENT/);
	});
});

describe('cliniq stats dispatcher', () => {
	it('prints its help with --help, and the main help names it', async () => {
		const help = await run('--help');
		expect(help.code).toBe(0);
		expect(help.out.join('\n')).toMatch(/cliniq stats ratings FILE \[--level/);
		const c = capture();
		expect(await main(['--help'], c.io)).toBe(0);
		expect(c.out.join('\n')).toMatch(/cliniq stats ratings\|rankings\|correlate\|pairwise/);
	});

	it('refuses an unknown subcommand', async () => {
		const r = await run('median', 'x.csv');
		expect(r.code).toBe(2);
		expect(r.out).toEqual([]);
		expect(r.err.join('\n')).toMatch(/Unknown stats subcommand "median"/);
	});
});
