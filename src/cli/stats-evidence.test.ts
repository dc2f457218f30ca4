import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cliniq-evidence-'));
});

function file(name: string, value: unknown) {
	const path = join(dir, name);
	writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
	return path;
}

async function run(...argv: string[]) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(['stats', 'evidence', ...argv], {
		stdout: (s) => out.push(s),
		stderr: (s) => err.push(s)
	});
	return { code, err, out, json: () => JSON.parse(out.join('\n')) };
}

const sentence = (relevance: string | null, citations: [number, string][] | null) => ({
	answer_sentence_id: 's',
	answer_sentence: 'Ibuprofen relieves migraine pain.',
	answer_sentence_relevance: relevance,
	citation_assessment:
		citations?.map(([cited_pmid, evidence_relation]) => ({
			cited_pmid: String(cited_pmid),
			evidence_relation
		})) ?? null
});

// Question 1: run A is accurate, two sentences (required citing 11 supporting; unnecessary citing
// 12 neutral); run B is not, one required sentence citing 13 contradicting. Question 2: A accurate
// with one required sentence and no citation; B accurate, no sentence at all.
const SMALL = [
	{
		question_id: 1,
		machine_generated_answers: {
			A: {
				is_answer_accurate: 'Yes',
				answer_sentences: [
					sentence('Required', [[11, 'supporting']]),
					sentence('unnecessary', [[12, 'neutral']])
				]
			},
			B: {
				is_answer_accurate: 'no',
				answer_sentences: [sentence('required', [[13, 'contradicting']])]
			}
		}
	},
	{
		question_id: 2,
		machine_generated_answers: {
			A: { is_answer_accurate: 'yes', answer_sentences: [sentence('required', null)] },
			B: { is_answer_accurate: 'yes', answer_sentences: [] }
		}
	}
];

describe('cliniq stats evidence', () => {
	it('prints the BioGen figures of each run, counted by hand', async () => {
		const r = await run(file('small.json', SMALL));
		expect(r.err).toEqual([]);
		expect(r.code).toBe(0);
		const out = r.json();
		expect(out.questions).toBe(2);
		// A: accuracy 2/2. Precision (50 + 100)/2, redundancy (50 + 0)/2. Coverage (1/2 + 0)/2 →
		// 25; support (1 of 2 cited, 50 %, + 0)/2 → 25. Pool of question 1 {11, 12, 13}: A judged
		// {11, 12} → recall 66.67 (question 2 has no pool: left out); precision (100 + 0)/2.
		expect(out.runs.A).toEqual({
			accuracy: 100,
			acceptable_answers: 2,
			precision: 75,
			redundancy: 25,
			harmfulness: 0,
			citation_coverage: 25,
			citation_support_rate: 25,
			citation_contradict_rate: 0,
			document_recall: 66.67,
			document_precision: 50
		});
		// B: accuracy 1/2. Precision 100 over question 1 alone (question 2 has no sentence).
		// Coverage 0; contradiction (100 + 0)/2. Recall 1/3 → 33.33; precision (100 + 0)/2.
		expect(out.runs.B).toEqual({
			accuracy: 50,
			acceptable_answers: 1,
			precision: 100,
			redundancy: 0,
			harmfulness: 0,
			citation_coverage: 0,
			citation_support_rate: 0,
			citation_contradict_rate: 50,
			document_recall: 33.33,
			document_precision: 50
		});
		expect(out.notes).toContain(
			'run "B", question "2": no sentence, citation coverage counted as 0'
		);
		expect(out.bootstrap).toBeUndefined();
		expect(out.runs.A.intervals).toBeUndefined();
	});

	it('refuses a label outside the official set, bad JSON and a missing file: exit 2, nothing on stdout', async () => {
		const bad = structuredClone(SMALL);
		bad[1].machine_generated_answers.A.answer_sentences[0].citation_assessment = [
			{ cited_pmid: '5', evidence_relation: 'Supporting' }
		];
		const label = await run(file('bad.json', bad));
		expect(label.code).toBe(2);
		expect(label.out).toEqual([]);
		expect(label.err.join('\n')).toBe(
			'Error: bad.json: question 2 (id "2"), run "A", sentence 1: evidence_relation "Supporting" is not one of supporting, contradicting, neutral, not relevant'
		);
		const broken = await run(file('broken.json', '[{"question_id": 1,'));
		expect(broken.code).toBe(2);
		expect(broken.out).toEqual([]);
		expect(broken.err.join('\n')).toMatch(/^Error: broken\.json is not valid JSON/);
		const missing = await run(join(dir, 'absent.json'));
		expect(missing.code).toBe(2);
		expect(missing.err.join('\n')).toMatch(/Cannot read .*absent\.json: ENOENT/);
		const seedless = await run(file('small2.json', SMALL), '--bootstrap', '10');
		expect(seedless.code).toBe(2);
		expect(seedless.out).toEqual([]);
	});

	it('adds bootstrap intervals per run that repeat with the seed', async () => {
		const many = Array.from({ length: 12 }, (_, q) => ({
			question_id: `q${q}`,
			machine_generated_answers: {
				A: {
					is_answer_accurate: q % 3 ? 'yes' : 'no',
					answer_sentences: [sentence(q % 2 ? 'required' : 'borderline', [[q, 'supporting']])]
				},
				B: { is_answer_accurate: 'yes', answer_sentences: [sentence('required', [[q, 'neutral']])] }
			}
		}));
		const path = file('many.json', many);
		const one = await run(path, '--bootstrap', '200', '--seed', 's1');
		expect(one.err).toEqual([]);
		const out = one.json();
		expect(out.bootstrap).toEqual({ resamples: 200, seed: 's1' });
		// A: 8 of 12 accurate → 66.67, inside its interval.
		const [low, high] = out.runs.A.intervals.accuracy;
		expect(low).toBeLessThanOrEqual(66.67);
		expect(high).toBeGreaterThanOrEqual(66.67);
		expect(out.runs.B.intervals.accuracy).toEqual([100, 100]);
		const again = await run(path, '--bootstrap', '200', '--seed', 's1');
		expect(again.out).toEqual(one.out);
		const other = await run(path, '--bootstrap', '200', '--seed', 's2');
		expect(other.out).not.toEqual(one.out);
	});

	it('says why a run that answered few questions has no interval', async () => {
		const out = (await run(file('small3.json', SMALL), '--bootstrap', '50', '--seed', 's')).json();
		expect(out.runs.A.intervals.precision).toBeNull();
		expect(out.runs.A.intervals_undefined.precision).toBe(
			'needs at least 5 questions answered by the run; has 2'
		);
	});

	it('is listed in the help of cliniq stats', async () => {
		const out: string[] = [];
		await main(['stats', '--help'], { stdout: (s) => out.push(s), stderr: () => {} });
		expect(out.join('\n')).toMatch(/cliniq stats evidence FILE \[--bootstrap N --seed S\]/);
	});
});
