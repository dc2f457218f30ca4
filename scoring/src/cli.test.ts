import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScoreCli } from './cli';

let dir: string;
const src = (id: string) => ({ isbn: 'x', page: 0, paragraph_id: id });
const tf = { question: 'Is it?', answer: 'True', type: 'true_false', source: src('p1') };
const mc = {
	question: 'Which?',
	options: ['Heparin', 'Warfarin', 'Aspirin', 'Clopidogrel'],
	correct_answer: 'Warfarin',
	type: 'multiple_choice',
	source: src('p2')
};
const mhi = {
	question: 'Why?',
	type: 'multi_hop_inverse',
	answer: 'wrong',
	reasoning: ['Step 1: a', 'Step 2: b'],
	incorrect_reasoning_step: [
		'- Step 2 contains the incorrect inference.',
		'- Explanation: b is wrong'
	],
	source: src('p3')
};

function capture() {
	const out = { stdout: '', stderr: '' };
	return {
		out,
		io: {
			stdout: (s: string) => void (out.stdout += s),
			stderr: (s: string) => void (out.stderr += s)
		}
	};
}

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'scoring-cli-'));
	await mkdir(join(dir, 'qa'));
	await mkdir(join(dir, 'resp'));
	await writeFile(join(dir, 'qa', 'a.json'), JSON.stringify([tf, [mc]]));
	await writeFile(join(dir, 'qa', 'b.json'), JSON.stringify([mhi]));
	await writeFile(
		join(dir, 'resp', 'true_false.json'),
		JSON.stringify({ inputs: [tf], responses: ['True'] })
	);
	await writeFile(
		join(dir, 'resp', 'multiple_choice.json'),
		JSON.stringify({ inputs: [mc], responses: ['B'] })
	);
	await writeFile(
		join(dir, 'cases.json'),
		JSON.stringify([
			{ id: 1, type: 'true_false', item: tf, response: 'false' },
			{ id: 'm', type: 'multiple_choice', item: mc, response: 'B' },
			{ id: 'x', type: 'multi_hop_inverse', item: mhi, response: 'Explanation: b is wrong' }
		])
	);
});

describe('cliniq score run', () => {
	it('prints a leaderboard row and writes JSON and CSV', async () => {
		const { out, io } = capture();
		const code = await runScoreCli(
			[
				'run',
				'--qa',
				join(dir, 'qa'),
				'--responses',
				join(dir, 'resp'),
				'--embedder',
				'hash:32',
				'--out',
				join(dir, 'out')
			],
			io
		);
		expect(code).toBe(0);
		expect(out.stdout).toMatch(/Overall\s+MC Acc\s+TF Acc/);
		expect(out.stdout).toMatch(/mode official, embedder hash:32/);
		const overall = JSON.parse(await readFile(join(dir, 'out', 'overall.json'), 'utf8'));
		expect(overall.leaderboard.tfAcc).toBe(1);
		expect(overall.leaderboard.mcAcc).toBe(0);
		expect(await readFile(join(dir, 'out', 'items.csv'), 'utf8')).toMatch(/^id,type,paragraph_id/);
		const corrected = capture();
		await runScoreCli(
			[
				'run',
				'--qa',
				join(dir, 'qa'),
				'--responses',
				join(dir, 'resp'),
				'--embedder',
				'hash:32',
				'--mode',
				'corrected'
			],
			corrected.io
		);
		expect(corrected.out.stdout).toMatch(/\n\s+28\.6\s+100\.0\s+100\.0/);
	});
});

describe('cliniq score cases', () => {
	it('writes one object per case with the per-type fields', async () => {
		const { io } = capture();
		const outFile = join(dir, 'cases-out.json');
		const code = await runScoreCli(
			[
				'cases',
				'--qa',
				join(dir, 'qa'),
				'--cases',
				join(dir, 'cases.json'),
				'--embedder',
				'hash:32',
				'--out',
				outFile
			],
			io
		);
		expect(code).toBe(0);
		const rows = JSON.parse(await readFile(outFile, 'utf8'));
		expect(rows[0]).toEqual({
			id: '1',
			type: 'true_false',
			predicted: 'false',
			correct: false,
			malformed: false,
			invalid: false
		});
		expect(rows[1]).toEqual({
			id: 'm',
			type: 'multiple_choice',
			correct: false,
			match_type: 'letter'
		});
		expect(rows[2]).toMatchObject({
			id: 'x',
			expected_step: 2,
			predicted_step: null,
			step_distance: null,
			penalty: 1,
			semantic: 1
		});
		expect(Object.keys(rows[2])).toEqual([
			'id',
			'type',
			'expected_step',
			'predicted_step',
			'step_distance',
			'penalty',
			'semantic',
			'bleu',
			'rouge',
			'meteor'
		]);
	});
});

describe('errors', () => {
	it.each([
		[['run', '--qa', 'x'], 2, /missing --responses/],
		[
			['run', '--qa', 'x', '--responses', 'y', '--mode', 'strict'],
			2,
			/--mode must be official or corrected/
		],
		[['run', '--qa', 'x', '--responses', 'y', '--embedder', 'bert'], 2, /--embedder must be/],
		[['frobnicate'], 2, /unknown command/],
		[['run', '--bogus'], 2, /Unknown option/],
		[
			['run', '--qa', '/nonexistent/qa', '--responses', 'y', '--embedder', 'hash:8'],
			1,
			/cannot read QA directory/
		]
	])('%j exits %i', async (argv, code, message) => {
		const { out, io } = capture();
		expect(await runScoreCli(argv as string[], io)).toBe(code);
		expect(out.stderr).toMatch(message);
	});
	it('reports invalid JSON and schema violations with the file name', async () => {
		await writeFile(join(dir, 'bad.json'), '{ nope');
		await writeFile(
			join(dir, 'bad-cases.json'),
			JSON.stringify([{ id: 1, type: 'essay', item: {}, response: '' }])
		);
		const a = capture();
		expect(
			await runScoreCli(
				[
					'cases',
					'--qa',
					join(dir, 'qa'),
					'--cases',
					join(dir, 'bad.json'),
					'--out',
					join(dir, 'o.json'),
					'--embedder',
					'hash:8'
				],
				a.io
			)
		).toBe(1);
		expect(a.out.stderr).toMatch(/bad\.json is not valid JSON/);
		const b = capture();
		expect(
			await runScoreCli(
				[
					'cases',
					'--qa',
					join(dir, 'qa'),
					'--cases',
					join(dir, 'bad-cases.json'),
					'--out',
					join(dir, 'o.json'),
					'--embedder',
					'hash:8'
				],
				b.io
			)
		).toBe(1);
		expect(b.out.stderr).toMatch(/bad-cases\.json: .* at 0\.type/);
	});
});
