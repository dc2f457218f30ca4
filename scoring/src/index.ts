import { typeMetrics } from './aggregate';
import type { Embedder } from './embedders/types';
import { scoreItem, type ScoredItem } from './item';
import type { NgramFn } from './ngram-types';
import { BASELINE_SEED } from './prng';
import { recordType, referenceTexts } from './refs';
import { buildOverall, type LeaderboardRow, type RunMeta } from './report';
import { SemanticScorer } from './semantic';
import {
	fieldText,
	paragraphId,
	SCORER_VERSION,
	TASK_TYPES,
	type Mode,
	type QaRecord,
	type TaskType
} from './types';
import { ngramMetrics } from './ngram/index';

export { SCORER_VERSION, TASK_TYPES, MODES, SUBMISSION_FILES } from './types';
export type { Mode, QaRecord, TaskType } from './types';
export type { ScoredItem, ItemScore } from './item';
export type { LeaderboardRow, RunMeta } from './report';
export type { Embedder, EmbedderOptions } from './embedders/types';
export { createEmbedder } from './embedders/index';
export { formatLeaderboard } from './report';
export { cleanResponse } from './text';

/**
 * Progress callback: phase name, items done, items total. A returned promise is awaited, so a
 * caller can yield to its event loop or persist progress before scoring continues.
 */
export type ProgressFn = (p: {
	phase: string;
	done: number;
	total: number;
}) => void | Promise<void>;

/** Options shared by scoreCases and scoreSubmission. */
export interface ScoreOptions {
	mode?: Mode;
	embedder: Embedder;
	/** Defaults to ./ngram's ngramMetrics; injectable for tests. */
	ngram?: NgramFn;
	/** Seed of the baseline sample (default BASELINE_SEED). */
	seed?: number;
	onProgress?: ProgressFn;
	/** Call onProgress after every this many items (default 500) and after the last. */
	progressEvery?: number;
}

/** One case for scoreCases: a QA record exactly as in the ClinIQLink files plus a model response. */
export interface CaseInput {
	id: string;
	type: TaskType;
	item: QaRecord;
	response: unknown;
}

/**
 * Per-type submission file content (docs/scoring-behaviour.md §2): inputs and responses paired by
 * index.
 */
export interface SubmissionFile {
	inputs: QaRecord[];
	responses: unknown[];
}

/** Result of scoring a whole submission. */
export interface SubmissionResult {
	meta: RunMeta;
	items: ScoredItem[];
	perType: Record<TaskType, Record<string, number>>;
	/** Whether each type had a usable file. */
	present: Record<TaskType, boolean>;
	overall: Record<string, unknown>;
	leaderboard: LeaderboardRow;
}

const PROGRESS_EVERY = 500;

async function scoreAll(
	jobs: { id: string; type: TaskType; record: QaRecord; response: unknown }[],
	refs: { type: TaskType; record: QaRecord }[],
	opts: ScoreOptions
): Promise<{ meta: RunMeta; items: ScoredItem[] }> {
	const mode = opts.mode ?? 'official';
	const seed = opts.seed ?? BASELINE_SEED;
	const texts = referenceTexts(refs, mode);
	const semantic = await SemanticScorer.create(opts.embedder, mode, texts, seed);
	const ctx = { mode, semantic, ngram: opts.ngram ?? ngramMetrics };
	const items: ScoredItem[] = [];
	const every = Math.max(1, Math.floor(opts.progressEvery ?? PROGRESS_EVERY));
	for (let i = 0; i < jobs.length; i++) {
		const j = jobs[i];
		items.push(await scoreItem(j.id, j.type, j.record, j.response, ctx));
		if (opts.onProgress && ((i + 1) % every === 0 || i + 1 === jobs.length)) {
			await opts.onProgress({ phase: 'score', done: i + 1, total: jobs.length });
		}
	}
	const meta: RunMeta = {
		mode,
		embedder: opts.embedder.name,
		scorerVersion: SCORER_VERSION,
		baseline: semantic.baseline,
		baselineSeed: seed,
		idfCorpusSize: semantic.idf.n,
		warnings: []
	};
	return { meta, items };
}

/** Scores individual cases; IDF corpus and baseline come from `qaRecords` (the whole QA set). */
export async function scoreCases(
	cases: CaseInput[],
	opts: ScoreOptions & { qaRecords: QaRecord[] }
): Promise<{ meta: RunMeta; items: ScoredItem[] }> {
	const refs = typed(opts.qaRecords);
	return scoreAll(
		cases.map((c) => ({ id: c.id, type: c.type, record: c.item, response: c.response })),
		refs,
		opts
	);
}

function typed(records: QaRecord[]): { type: TaskType; record: QaRecord }[] {
	const out: { type: TaskType; record: QaRecord }[] = [];
	for (const record of records) {
		const type = recordType(record);
		if (type) out.push({ type, record });
	}
	return out;
}

/** Identity of a record for matching submission inputs to the trusted QA files. */
function recordKey(type: TaskType, r: QaRecord): string {
	return `${type}\u0000${paragraphId(r)}\u0000${fieldText(r.question)}`;
}

/** Thrown for inputs that cannot be scored (unknown items, bad pairing); the message is user-facing. */
export class ScoringInputError extends Error {}

/**
 * Scores a submission (one {inputs, responses} file per type). With `qaRecords`, gold answers come
 * from those records (matched by type, paragraph_id and question) instead of the submission's copy.
 */
export async function scoreSubmission(
	opts: ScoreOptions & {
		submission: Partial<Record<TaskType, SubmissionFile>>;
		qaRecords?: QaRecord[];
	}
): Promise<SubmissionResult> {
	const mode = opts.mode ?? 'official';
	const warnings: string[] = [];
	const byKey = new Map<string, QaRecord>();
	for (const { type, record } of typed(opts.qaRecords ?? []))
		byKey.set(recordKey(type, record), record);
	const jobs: { id: string; type: TaskType; record: QaRecord; response: unknown }[] = [];
	const present = {} as Record<TaskType, boolean>;
	const unknown: string[] = [];
	for (const type of TASK_TYPES) {
		const file = opts.submission[type];
		present[type] = false;
		if (!file) {
			warnings.push(`${type}: no submission file; the type scores 0`);
			continue;
		}
		if (file.inputs.length !== file.responses.length) {
			warnings.push(
				`${type}: ${file.inputs.length} inputs but ${file.responses.length} responses; the type scores 0`
			);
			continue;
		}
		present[type] = true;
		file.inputs.forEach((input, i) => {
			let record = input;
			if (opts.qaRecords) {
				const hit = byKey.get(recordKey(type, input));
				if (!hit) unknown.push(`${type}[${i}] (paragraph_id ${paragraphId(input)})`);
				else record = hit;
			}
			const id =
				typeof input.id === 'string' || typeof input.id === 'number'
					? String(input.id)
					: `${type}:${i}`;
			jobs.push({ id, type, record, response: file.responses[i] });
		});
	}
	if (unknown.length > 0) {
		const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
		throw new ScoringInputError(
			`inputs not found in the QA files: ${unknown.slice(0, 5).join(', ')}${more}`
		);
	}
	// Official IDF/baseline use the submission's own inputs; corrected uses the whole QA set when given.
	const refSource =
		mode === 'corrected' && opts.qaRecords
			? typed(opts.qaRecords)
			: jobs.map((j) => ({ type: j.type, record: j.record }));
	const { meta, items } = await scoreAll(jobs, refSource, opts);
	meta.warnings = warnings;
	return { meta, items, present, ...aggregateItems(items, mode) };
}

/**
 * Per-type metrics, the official overall object and the Table-2 row of already scored items of
 * one submission (one model); a type without items scores 0, as in scoreSubmission.
 */
export function aggregateItems(
	items: ScoredItem[],
	mode: Mode
): Pick<SubmissionResult, 'perType' | 'overall' | 'leaderboard'> {
	const perType = {} as Record<TaskType, Record<string, number>>;
	for (const t of TASK_TYPES)
		perType[t] = typeMetrics(
			t,
			items.filter((i) => i.score.type === t),
			mode
		);
	const { overall, leaderboard } = buildOverall(perType, items, mode);
	return { perType, overall, leaderboard };
}
