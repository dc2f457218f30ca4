import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import type { RubricReport } from '$lib/server/domain/studies';
import { judgeAgreement, judgePoints, rankJudges } from '$lib/stats/judges';
import {
	modelMeans,
	positionBias,
	rubricAgreement,
	scoreDistributions,
	type RubricShape,
	type ScoreRow
} from '$lib/stats/rubric';
import { heatColour, thin } from './present';
import RubricSection from './RubricSection.svelte';

const shape: RubricShape = {
	aspects: [{ code: 'A', subAspects: ['ACC'] }],
	scale: { min: 0, max: 5 }
};
const boot = { resamples: 20, seed: 'page' };

/** A report as the loader gives it, from the stats module on `rows` (answers shown one at a time). */
function report(rows: ScoreRow[]): RubricReport {
	const judge = rows
		.filter((r) => r.rater === 'ann')
		.map((r) => ({
			judge: 'J',
			question: r.question,
			candidate: r.candidate,
			subAspect: 'overall',
			score: r.score
		}));
	const judged = judgeAgreement(rows, judge, shape, boot);
	return {
		rubric: { version: 1, definition: { aspects: [] } } as unknown as RubricReport['rubric'],
		shape,
		scores: rows.length,
		sheets: 4,
		excluded: { judgements: 0, raters: 0, bySource: { organiser: 0, withdrawal: 0 }, reasons: [] },
		agreement: rubricAgreement(rows, shape, boot),
		models: modelMeans(rows, shape, boot),
		distributions: scoreDistributions(rows, shape),
		positionBias: positionBias(rows, boot),
		judges: judged,
		judgeRanking: rankJudges(judged),
		judgePoints: judgePoints(rows, judge, shape),
		preferences: [],
		bootstrap: boot
	};
}

// One physician per question: no agreement can be computed, and nothing was shown side by side.
const ROWS: ScoreRow[] = [
	['q1', 'a', 'm1', 'ann', 4],
	['q1', 'b', 'm2', 'ann', 2],
	['q2', 'c', 'm1', 'ann', 3],
	['q2', 'd', 'm2', 'ann', 1]
].map(([question, candidate, model, rater, score]) => ({
	question: question as string,
	candidate: candidate as string,
	model: model as string,
	rater: rater as string,
	subAspect: 'ACC',
	score: score as number,
	side: null
}));

describe('RubricSection', () => {
	const { body } = render(RubricSection, { props: { id: 7, name: 'Cardiology', r: report(ROWS) } });

	it('is the study’s section, headed with its name, parts in order', () => {
		expect(body).toMatch(/<section id="study-7"/);
		expect(body).toMatch(/Rubric study “Cardiology”/);
		const order = [
			'Automatic judges against physicians',
			'Model means per sub-aspect',
			'Do physicians agree?',
			'Score distributions',
			'Position bias'
		].map((h) => body.indexOf(h));
		expect(order.every((i) => i >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});

	it('prints why a figure is undefined, never 0 or NaN', () => {
		expect(body).toContain(
			'no value: quadratic-weighted kappa needs exactly 2 rater slots; found 1'
		);
		expect(body).toContain(
			'No side-by-side judgements yet: no rater scored a left and a right answer'
		);
		expect(body).not.toContain('NaN');
	});

	it('shows the model means in the heat map and a dot per judged answer', () => {
		// m1: a 4, c 3 → 3.50; m2: b 2, d 1 → 1.50.
		expect(body).toMatch(/>3\.50</);
		expect(body).toMatch(/>1\.50</);
		expect(body.match(/<circle/g)).toHaveLength(4);
	});
});

describe('heat map colours and thinned scatter plots', () => {
	it('colours the scale light to dark and leaves an undefined mean uncoloured', () => {
		// Lightness 96 % at the scale's minimum, 96 − 60 = 36 % at its maximum.
		expect(heatColour(0, 0, 5)?.background).toBe('hsl(210 70% 96%)');
		expect(heatColour(5, 0, 5)).toEqual({ background: 'hsl(210 70% 55%)', color: '#111' });
		expect(heatColour(null, 0, 5)).toBeNull();
	});

	it('keeps at most the given number of answers, evenly spread', () => {
		const ten = Array.from({ length: 10 }, (_, i) => i);
		expect(thin(ten, 4)).toEqual([0, 2, 5, 7]); // steps of 10/4 = 2.5, floored
		expect(thin(ten, 20)).toBe(ten);
	});
});
