import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { CaseInput, SubmissionFile, SubmissionResult } from './index';
import type { ScoredItem } from './item';
import { SUBMISSION_FILES, TASK_TYPES, type QaRecord, type TaskType } from './types';

/** A user-facing input problem (bad file, bad JSON, failed validation). */
export class InputError extends Error {}

const record = z.looseObject({
	question: z.string(),
	type: z.string(),
	source: z.looseObject({ paragraph_id: z.union([z.string(), z.number()]) }).optional()
});
const qaFile = z.array(z.union([record, z.array(record)]));
const submissionFile = z.looseObject({
	inputs: z.array(z.looseObject({})),
	responses: z.array(z.unknown())
});
const casesFile = z.array(
	z.object({
		id: z.union([z.string(), z.number()]).transform(String),
		type: z
			.enum([...TASK_TYPES, 'short'])
			.transform((t) => (t === 'short' ? 'short_answer' : t) as TaskType),
		item: z.looseObject({ question: z.string() }),
		response: z.unknown()
	})
);

async function readJson(path: string): Promise<unknown> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new InputError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
	}
	try {
		return JSON.parse(text);
	} catch (e) {
		throw new InputError(`${path} is not valid JSON: ${(e as Error).message}`);
	}
}

function check<T>(schema: z.ZodType<T>, data: unknown, path: string): T {
	const r = schema.safeParse(data);
	if (r.success) return r.data;
	const issue = r.error.issues[0];
	throw new InputError(`${path}: ${issue.message} at ${issue.path.join('.') || '(root)'}`);
}

/** Reads every *.json file of a QA directory (arrays of records, one nested level flattened). */
export async function loadQaDir(dir: string): Promise<QaRecord[]> {
	let names: string[];
	try {
		names = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.json')).sort();
	} catch (e) {
		throw new InputError(
			`cannot read QA directory ${dir}: ${(e as NodeJS.ErrnoException).code ?? e}`
		);
	}
	if (names.length === 0) throw new InputError(`no *.json files in QA directory ${dir}`);
	const out: QaRecord[] = [];
	for (const n of names) {
		const path = join(dir, n);
		for (const x of check(qaFile, await readJson(path), path)) {
			if (Array.isArray(x)) out.push(...(x as QaRecord[]));
			else out.push(x as QaRecord);
		}
	}
	return out;
}

/**
 * Reads the per-type submission files of docs/scoring-behaviour.md §2 that exist in a directory.
 */
export async function loadSubmissionDir(
	dir: string
): Promise<Partial<Record<TaskType, SubmissionFile>>> {
	let names: Set<string>;
	try {
		names = new Set(await readdir(dir));
	} catch (e) {
		throw new InputError(
			`cannot read responses directory ${dir}: ${(e as NodeJS.ErrnoException).code ?? e}`
		);
	}
	const out: Partial<Record<TaskType, SubmissionFile>> = {};
	for (const t of TASK_TYPES) {
		const name = SUBMISSION_FILES[t];
		if (!names.has(name)) continue;
		const path = join(dir, name);
		out[t] = check(submissionFile, await readJson(path), path) as SubmissionFile;
	}
	if (Object.keys(out).length === 0) {
		throw new InputError(
			`no submission files in ${dir} (expected ${Object.values(SUBMISSION_FILES).join(', ')})`
		);
	}
	return out;
}

/** Reads and validates a cases file: a JSON array of {id, type, item, response}. */
export async function loadCasesFile(path: string): Promise<CaseInput[]> {
	return check(casesFile, await readJson(path), path) as CaseInput[];
}

/** The flat per-item row written to JSON/CSV. */
export function itemRow(it: ScoredItem): Record<string, unknown> {
	const s = it.score;
	const base = { id: it.id, type: s.type, paragraph_id: it.paragraphId };
	switch (s.type) {
		case 'true_false':
			return {
				...base,
				predicted: s.predicted,
				correct: s.correct,
				malformed: s.malformed,
				invalid: s.invalid
			};
		case 'multiple_choice':
			return { ...base, correct: s.correct, match_type: s.matchType, invalid: s.invalid };
		case 'list':
			return {
				...base,
				precision: s.precision,
				recall: s.recall,
				f1: s.f1,
				malformed: s.malformed,
				match_type: s.matchType,
				dropped: s.dropped
			};
		case 'multi_hop_inverse':
			return {
				...base,
				expected_step: s.expectedStep,
				predicted_step: s.predictedStep,
				step_distance: s.stepDistance,
				penalty: s.penalty,
				semantic: s.semantic,
				bleu: s.bleu,
				rouge: s.rouge,
				meteor: s.meteor
			};
		default:
			return { ...base, semantic: s.semantic, bleu: s.bleu, rouge: s.rouge, meteor: s.meteor };
	}
}

/** RFC 4180 CSV of rows, columns = union of keys in first-seen order. */
export function toCsv(rows: Record<string, unknown>[]): string {
	const cols: string[] = [];
	for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
	const cell = (v: unknown) => {
		const s =
			v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
		return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
	};
	return (
		[cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n'
	);
}

/** Writes items, per-type and overall results as JSON and CSV into `dir`. */
export async function writeSubmissionResult(dir: string, res: SubmissionResult): Promise<string[]> {
	await mkdir(dir, { recursive: true });
	const rows = res.items.map(itemRow);
	const typeRows = TASK_TYPES.map((t) => ({ type: t, present: res.present[t], ...res.perType[t] }));
	const files: [string, string][] = [
		['items.json', JSON.stringify({ meta: res.meta, items: res.items }, null, 2)],
		['items.csv', toCsv(rows)],
		[
			'per-type.json',
			JSON.stringify({ meta: res.meta, perType: res.perType, present: res.present }, null, 2)
		],
		['per-type.csv', toCsv(typeRows)],
		[
			'overall.json',
			JSON.stringify({ meta: res.meta, leaderboard: res.leaderboard, ...res.overall }, null, 2)
		],
		[
			'overall.csv',
			toCsv([
				{
					mode: res.meta.mode,
					embedder: res.meta.embedder,
					scorer_version: res.meta.scorerVersion,
					baseline: res.meta.baseline,
					idf_corpus_size: res.meta.idfCorpusSize,
					...res.leaderboard
				}
			])
		]
	];
	for (const [name, text] of files)
		await writeFile(join(dir, name), text + (name.endsWith('.json') ? '\n' : ''));
	return files.map(([n]) => join(dir, n));
}
