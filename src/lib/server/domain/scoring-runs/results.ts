import { asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { model, qaItem, score } from '../../db/schema';
import type { QaType } from '../../../constants';
import { toCsv } from '../../csv';
import { UNRECORDED_CORPUS, type ScoreMetrics } from './runs';

/** Types whose per-response scores are continuous, shown as box plots (list: per-question F1). */
export const DISTRIBUTION_TYPES = [
	'list',
	'short_answer',
	'short_inverse',
	'multi_hop',
	'multi_hop_inverse'
] as const satisfies readonly QaType[];

/** Five-number summary of one model's scores of one type (quartiles interpolated like numpy). */
export interface BoxStats {
	modelId: number;
	type: (typeof DISTRIBUTION_TYPES)[number];
	n: number;
	min: number;
	q1: number;
	median: number;
	q3: number;
	max: number;
	mean: number;
}

/** Per model and type: the distribution of the per-response headline values of a run. */
export async function scoreDistributions(db: Db, runId: number): Promise<BoxStats[]> {
	const types = sql.join(
		DISTRIBUTION_TYPES.map((t) => sql`${t}`),
		sql`, `
	);
	const result = await db.execute(sql`
		select model_id as "modelId", type, count(*)::int as n,
			min(value) as min,
			percentile_cont(0.25) within group (order by value) as q1,
			percentile_cont(0.5) within group (order by value) as median,
			percentile_cont(0.75) within group (order by value) as q3,
			max(value) as max,
			avg(value) as mean
		from score
		where run_id = ${runId} and type::text in (${types})
		group by model_id, type
		order by model_id, type`);
	return rowsOf<BoxStats>(result).map((r) => ({
		...r,
		n: Number(r.n),
		min: Number(r.min),
		q1: Number(r.q1),
		median: Number(r.median),
		q3: Number(r.q3),
		max: Number(r.max),
		mean: Number(r.mean)
	}));
}

/** Columns of the per-response CSV; every row names the run's mode, embedder and scorer version. */
export const SCORE_CSV_COLUMNS = [
	'run_id',
	'mode',
	'embedder',
	'scorer_version',
	'model',
	'response_id',
	'item_id',
	'item_version_id',
	'paragraph_id',
	'type',
	'value',
	'correct',
	'invalid',
	'match_type',
	'precision',
	'recall',
	'f1',
	'semantic',
	'bleu',
	'rouge',
	'meteor',
	'expected_step',
	'predicted_step',
	'step_distance',
	'penalty',
	'corpus',
	'corpus_digest'
];

/** Run identity repeated on every exported score. */
export interface RunIdentity {
	id: number;
	mode: string;
	embedder: string;
	scorerVersion: string;
	/** The corpus the run scored against; null for a run that predates recorded corpora. */
	corpus?: { label: string; digest: string } | null;
}

/** Every per-response score of a run with its model and item, in a stable order. */
export async function runScores(db: Db, runId: number) {
	return db
		.select({
			responseId: score.responseId,
			itemId: score.itemId,
			paragraphId: qaItem.paragraphId,
			model: model.name,
			type: score.type,
			value: score.value,
			metrics: score.metrics
		})
		.from(score)
		.innerJoin(model, eq(model.id, score.modelId))
		.innerJoin(qaItem, eq(qaItem.id, score.itemId))
		.where(eq(score.runId, runId))
		.orderBy(asc(model.name), asc(score.itemId));
}

type ScoreRow = Awaited<ReturnType<typeof runScores>>[number];

/** The per-response scores as CSV (one row per response, the main metrics flattened). */
export function scoresCsv(run: RunIdentity, rows: ScoreRow[]): string {
	return toCsv(
		SCORE_CSV_COLUMNS,
		rows.map((r) => {
			const m = r.metrics as ScoreMetrics & Record<string, unknown>;
			return {
				run_id: run.id,
				mode: run.mode,
				embedder: run.embedder,
				scorer_version: run.scorerVersion,
				model: r.model,
				response_id: r.responseId,
				item_id: r.itemId,
				item_version_id: m.itemVersionId,
				paragraph_id: r.paragraphId,
				type: r.type,
				value: r.value,
				correct: m.correct,
				invalid: m.invalid,
				match_type: m.matchType,
				precision: m.precision,
				recall: m.recall,
				f1: m.f1,
				semantic: m.semantic,
				bleu: m.bleu,
				rouge: m.rouge,
				meteor: m.meteor,
				expected_step: m.expectedStep,
				predicted_step: m.predictedStep,
				step_distance: m.stepDistance,
				penalty: m.penalty,
				corpus: run.corpus?.label ?? UNRECORDED_CORPUS,
				corpus_digest: run.corpus?.digest ?? ''
			};
		})
	);
}
