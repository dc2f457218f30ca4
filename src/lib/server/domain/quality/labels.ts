// Every design's judgements as categorical labels in one shape (designs/<design>/labels.ts), the
// common ground of gold checks, qualification rounds and rater quality.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { study } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { DESIGNS } from '../studies';
import type { JudgementLabel } from '../studies';

export type { JudgementLabel };

export interface LabelOptions {
	/** Which questions: the live ones (default), the gold ones, or both. */
	questions?: 'live' | 'gold' | 'all';
	/** Only judgements that count (no standing exclusion). */
	counted?: boolean;
	/** Only these raters. */
	raterIds?: string[];
}

/** A study's submitted judgements as labels, oldest assignment first. */
export async function studyLabels(
	db: Db,
	studyId: number,
	options: LabelOptions = {}
): Promise<JudgementLabel[]> {
	const [row] = await db.select({ design: study.design }).from(study).where(eq(study.id, studyId));
	if (!row) return [];
	const filters: SQL[] = [];
	const questions = options.questions ?? 'live';
	if (questions === 'live') filters.push(sql`not q.gold`);
	if (questions === 'gold') filters.push(sql`q.gold`);
	if (options.counted)
		filters.push(sql`judgement_counts(a.physician_id, q.study_id, a.submitted_at)`);
	if (options.raterIds)
		filters.push(
			options.raterIds.length === 0
				? sql`false`
				: sql`a.physician_id in (${sql.join(
						options.raterIds.map((id) => sql`${id}`),
						sql`, `
					)})`
		);
	const where = filters.length === 0 ? sql`true` : sql.join(filters, sql` and `);
	return DESIGNS[row.design].labels(db, studyId, where);
}
