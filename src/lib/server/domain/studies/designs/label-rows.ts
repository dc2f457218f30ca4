// Reads a design's label query (designs/<design>/labels.ts) into `JudgementLabel`s: each design
// selects assignment, question, rater, submitted_at, time_on_task_ms, key and label.
import type { SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client';
import type { JudgementLabel } from './plug';

interface LabelRow {
	assignment_id: number | string;
	question_id: number | string;
	rater_id: string;
	submitted_at: Date | string;
	time_on_task_ms: number | string | null;
	key: string;
	label: string;
}

/** Runs a design's label query and types its rows. */
export async function readLabels(db: Db, query: SQL): Promise<JudgementLabel[]> {
	return rowsOf<LabelRow>(await db.execute(query)).map((r) => ({
		assignmentId: Number(r.assignment_id),
		questionId: Number(r.question_id),
		raterId: r.rater_id,
		submittedAt: new Date(r.submitted_at),
		timeOnTaskMs: r.time_on_task_ms === null ? null : Number(r.time_on_task_ms),
		key: r.key,
		label: r.label
	}));
}

/** The name a label key gives an answer: its model's name, or `reference`. */
export const SOURCE_NAME_SQL = `coalesce((select m.name from model m where m.id = c.model_id), 'reference')`;
