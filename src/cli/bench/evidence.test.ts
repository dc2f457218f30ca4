import { describe, expect, it } from 'vitest';
import { CITATIONS, runEvidenceBench } from './evidence';

describe('evidence bench', () => {
	it('runs end to end on PGlite at a tiny size, printing each figure beside its baseline', async () => {
		const lines: string[] = [];
		await runEvidenceBench(
			{ stdout: (l) => lines.push(l), stderr: (l) => lines.push(`stderr: ${l}`) },
			{ documents: 200, questions: 3, runs: 2, assessors: 2, seconds: 0.5, kinds: ['pglite'] }
		);
		const text = lines.join('\n');
		expect(CITATIONS).toBe(15);
		expect(text).not.toMatch(/stderr/);
		expect(text).toMatch(
			/PGlite: portal opens an answer's screen: \d+ actions\/s .* median [\d.]+ ms.* 2\.0 statements per action/
		);
		expect(text).toMatch(
			/PGlite: raw driver baseline \(the question, the answer's sentences, its documents, the saved work\): .* 4\.0 statements per action/
		);
		// One statement a save.
		expect(text).toMatch(/PGlite: portal saves one sentence's step: .* 1\.0 statements per action/);
		expect(text).toMatch(/saving at \d+ % of the baseline rate/);
	});
});
