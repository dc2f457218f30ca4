import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import type { PairwiseReport } from '$lib/server/domain/studies';
import { btLeaderboard } from '$lib/stats/bradley-terry';
import {
	positionBias,
	preferenceAgreement,
	preferenceBattles,
	styleControlledBt,
	verbosityBias,
	winMatrix,
	type PreferenceRow
} from '$lib/stats/preference';
import {
	bandLabel,
	battlesPerModel,
	boardLines,
	cellText,
	forestRows,
	forestScale,
	proportionText,
	rankAgreement,
	rankRangeText,
	type BoardRow
} from './present';
import PairwiseSection from './PairwiseSection.svelte';

const boot = { resamples: 30, seed: 'page' };

/** A report as the loader gives it, from the stats module on `rows`. */
function report(rows: PreferenceRow[]): PairwiseReport {
	const battles = preferenceBattles(rows);
	return {
		judgements: rows.length,
		excluded: { judgements: 0, raters: 0, bySource: { organiser: 0, withdrawal: 0 }, reasons: [] },
		physicians: new Set(rows.map((r) => r.rater)).size,
		questions: new Set(rows.map((r) => r.question)).size,
		outcomes: {
			left: rows.filter((r) => r.outcome === 'left').length,
			right: rows.filter((r) => r.outcome === 'right').length,
			tieGood: rows.filter((r) => r.outcome === 'tie_good').length,
			tieBad: rows.filter((r) => r.outcome === 'tie_bad').length
		},
		leaderboard: btLeaderboard(battles, boot),
		styleControlled: styleControlledBt(
			battles.map((b, i) => ({
				...b,
				lengthA: rows[i].leftLength!,
				lengthB: rows[i].rightLength!
			})),
			boot
		),
		matrix: winMatrix(battles),
		positionBias: positionBias(rows),
		verbosityBias: verbosityBias(rows),
		agreement: preferenceAgreement(rows),
		aspects: [],
		judges: [],
		bootstrap: boot
	};
}

// Three questions, three pairs each, judged by ann and bob on opposite sides. Ann always picks the
// left answer (position bias: she is shown "top" left, and "a" left of "b"); bob sees the sides
// swapped, so picks the right answer, except that he prefers b to a in q3. "top" wins every
// comparison, so it has no finite rating.
const ROWS: PreferenceRow[] = [];
for (const q of ['q1', 'q2', 'q3'])
	for (const [left, right] of [
		['a', 'b'],
		['top', 'a'],
		['top', 'b']
	]) {
		const lengths = (l: string, r: string) => ({
			leftLength: l === 'a' ? 300 : 100,
			rightLength: r === 'a' ? 300 : 100
		});
		ROWS.push({ question: q, rater: 'ann', left, right, outcome: 'left', ...lengths(left, right) });
		const bobLeft = q === 'q3' && left === 'a';
		ROWS.push({
			question: q,
			rater: 'bob',
			left: right,
			right: left,
			outcome: bobLeft ? 'left' : 'right',
			...lengths(right, left)
		});
	}

describe('PairwiseSection', () => {
	const r = report(ROWS);
	const { body } = render(PairwiseSection, {
		props: { id: 4, name: 'Cardiology pairs', r, styleResamples: 7 }
	});

	it('is the study’s section, headed with its name, parts in order', () => {
		expect(body).toMatch(/<section id="study-4"/);
		expect(body).toContain('Pairwise study “Cardiology pairs”');
		const order = [
			'Leaderboard (Bradley–Terry)',
			'Length-controlled leaderboard',
			'Win / tie / loss matrix',
			'Position bias',
			'Verbosity bias',
			'Do physicians agree?'
		].map((h) => body.indexOf(h));
		expect(order.every((i) => i >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});

	it('says why a rating or an interval is missing, never NaN or a number', () => {
		expect(body).toContain(
			'no rating: top won every comparison it took part in: its rating has no finite maximum-likelihood value'
		);
		// Three questions: no interval, and the reason instead.
		expect(body).toContain('no interval: needs at least 5 judged questions; has 3');
		expect(body.match(/.{80}(NaN|undefined).{80}/g)).toBeNull();
	});

	it('draws forest plots with a title and description, and the matrix with its counts in words', () => {
		expect(
			body.match(/<svg role="img" aria-labelledby="forest-(plain|style)-4-title/g)
		).toHaveLength(2);
		expect(body).toContain('<title id="forest-plain-4-title">');
		expect(body).toContain('<desc id="forest-plain-4-desc">');
		// a against b: 5 wins (ann 3, bob 2), no tie, 1 loss (bob in q3).
		const ab = r.matrix.cells.find((c) => c.a === 'a' && c.b === 'b')!;
		expect(cellText(ab)).toBe('5–0–1');
		expect(body).toContain('5–0–1');
	});

	it('flags the physician who always picks the left answer and names the resamples it used', () => {
		expect(body).toContain('Flagged for position bias: ann, bob');
		// a–b: the two agree on q1 and q2 only; top's pairs all agree: 8 of 9 units.
		expect(body).toContain('88.9 %');
		expect(body.replace(/\s+/g, ' ')).toContain(
			'Intervals: 7 resamples of whole questions (at most 7: each is a full regression)'
		);
	});
});

describe('leaderboard presentation', () => {
	const row = (
		model: string,
		value: number | null,
		low: number,
		high: number,
		best = 1,
		worst = 2
	): BoardRow => ({
		model,
		rating: value === null ? { value: null, reason: `${model} took part in no battle` } : { value },
		interval:
			value === null
				? { low: null, high: null, reason: `${model} took part in no battle` }
				: { low, high, level: 0.95, resamples: 100, valid: 100 },
		rankBest: value === null ? null : best,
		rankWorst: value === null ? null : worst
	});

	it('ranks rated models, keeps unrated ones last without a rank, and withholds intervals over few questions', () => {
		const rows = [
			row('x', 1100, 1050, 1150, 1, 1),
			row('y', 900, 850, 950, 2, 2),
			row('z', null, 0, 0)
		];
		const lines = boardLines(rows, 12, { x: 8, y: 8 });
		expect(lines.map((l) => [l.rank, l.rankRange, l.battles])).toEqual([
			[1, '1', 8],
			[2, '2', 8],
			[null, null, null]
		]);
		const few = boardLines(rows, 4);
		expect(few[0].interval).toEqual({
			low: null,
			high: null,
			reason: 'needs at least 5 judged questions; has 4'
		});
		expect(few[0].rankRange).toBeNull();
		// An undefined rating keeps its own reason.
		expect(few[2].interval).toMatchObject({ reason: 'z took part in no battle' });
		expect(forestRows(lines)[2]).toMatchObject({ value: null, reason: 'z took part in no battle' });
	});

	it('writes rank ranges, shares, bands and matrix cells', () => {
		expect(rankRangeText(1, 3)).toBe('1–3');
		expect(rankRangeText(2, 2)).toBe('2');
		expect(rankRangeText(null, 2)).toBeNull();
		expect(proportionText({ share: { value: 0.25 }, interval: { low: 0.1, high: 0.5 } })).toBe(
			'25.0 % [10.0, 50.0 %]'
		);
		expect(proportionText({ share: { value: null, reason: 'all ties' }, interval: null })).toBe(
			'no value: all ties'
		);
		expect(bandLabel({ low: 1.25, high: 1.5 })).toBe('1.25–1.5×');
		expect(bandLabel({ low: 2, high: null })).toBe('2× or more');
		expect(cellText({ wins: 5, ties: 3, losses: 4, n: 12 })).toBe('5–3–4');
		expect(cellText({ wins: 0, ties: 0, losses: 0, n: 0 })).toBe('never met');
		expect(
			battlesPerModel([
				{ a: 'x', n: 3 },
				{ a: 'y', n: 3 },
				{ a: 'x', n: 2 }
			])
		).toEqual({ x: 5, y: 3 });
	});

	it('scales the forest plot to whole steps around 1000', () => {
		expect(forestScale([{ label: 'x', value: 1010, low: 960, high: 1130 }])).toEqual({
			min: 950,
			max: 1150,
			ticks: [950, 1000, 1050, 1100, 1150]
		});
		// A wide spread takes a larger step; 1000 is always on the axis.
		expect(forestScale([{ label: 'x', value: 870, low: 776, high: 1301 }]).ticks).toEqual([
			600, 800, 1000, 1200, 1400
		]);
		expect(forestScale([]).ticks).toEqual([975, 1000, 1025]);
	});

	it('compares two leaderboards by Kendall’s tau-b and Spearman’s rho over the models both rate', () => {
		const a = [row('x', 1100, 0, 0), row('y', 1000, 0, 0), row('w', 900, 0, 0)];
		expect(rankAgreement(a, a)).toMatchObject({ shared: 3, tau: { value: 1 }, rho: { value: 1 } });
		const reversed = [row('x', 900, 0, 0), row('y', 1000, 0, 0), row('w', 1100, 0, 0)];
		expect(rankAgreement(a, reversed).tau.value).toBeCloseTo(-1, 12);
		expect(rankAgreement(a, [row('x', 1000, 0, 0), row('q', 1000, 0, 0)]).tau).toEqual({
			value: null,
			reason: 'needs 2 models rated in both; has 1'
		});
	});
});
