import { describe, expect, it } from 'vitest';
import { benchBattles, runPairwiseBench } from './pairwise';

describe('pairwise bench', () => {
	it('makes every pair of 8 models on each question, reproducibly', () => {
		const battles = benchBattles(3);
		expect(battles).toHaveLength(3 * 28);
		expect(benchBattles(3)).toEqual(battles);
		expect(new Set(battles.map((b) => `${b.question} ${[b.modelA, b.modelB].sort()}`)).size).toBe(
			84
		);
	});

	it('runs end to end on PGlite at a tiny size, printing each figure beside its baseline', async () => {
		const lines: string[] = [];
		await runPairwiseBench(
			{ stdout: (l) => lines.push(l), stderr: (l) => lines.push(`stderr: ${l}`) },
			{
				questions: 4,
				reportQuestions: { pglite: 3, postgres: 3 },
				physicians: 3,
				k: 2,
				seconds: 0.5,
				kinds: ['pglite'],
				battleQuestions: 20,
				resamples: 20,
				naiveResamples: 5
			}
		);
		const text = lines.join('\n');
		expect(text).not.toMatch(/stderr/);
		expect(text).toMatch(
			/PGlite: portal submit preference \+ next pair \(with its view\): \d+ actions\/s .* 1\.\d statements per action/
		);
		expect(text).toMatch(/PGlite: raw driver baseline .* 5\.0 statements per action/);
		expect(text).toMatch(/portal at \d+ % of the baseline rate/);
		// The report's own study: 3 questions × 28 pairs × k = 2, nobody's pairs taken.
		expect(text).toMatch(/opened a second study, for its report/);
		expect(text).toMatch(/filled the study to 168 judgements/);
		expect(text).toMatch(/report \(leaderboard with 1,000 resamples.*\): [\d.]+ s; its extraction/);
		expect(text).toMatch(/560 battles/);
		expect(text).toMatch(/naive bootstrap .* for 5 resamples/);
	});
});
