// Leaderboards of a study compared across designs: every design turns its judgements into pairwise
// battles (its plug's `battles`), so the Bradley–Terry leaderboard of a pairwise study can be set
// beside the ones its questions got in ranking and rubric studies, on the questions both share.
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { study, studyQuestion } from '../../db/schema';
import {
	btLeaderboardSteps,
	type Battle,
	type BtLeaderboardRow
} from '../../../stats/bradley-terry';
import { inSlices } from '../../progress';
import type { StudyDesign } from '../../../constants';
import { DESIGNS } from './designs/registry';
import { questionKeySql } from './question-key';

export interface ComparedLeaderboard {
	studyId: number;
	study: string;
	design: StudyDesign;
	label: string;
	/** Questions of this leaderboard shared with the compared study, and its battles on them. */
	questions: number;
	battles: number;
	rows: BtLeaderboardRow[];
}

/**
 * The Bradley–Terry leaderboards of a study and of every other study sharing questions with it,
 * each computed on the shared questions only (the study's own on all of its questions), with
 * bootstrap intervals over questions. Studies whose design gives no battles, and qualification
 * rounds, are left out; each design's battles count only the judgements that count.
 */
export async function compareLeaderboards(
	db: Db,
	studyId: number,
	opts: { resamples: number; seed: string }
): Promise<{ own: ComparedLeaderboard[]; others: ComparedLeaderboard[] }> {
	const [me] = await db.select().from(study).where(eq(study.id, studyId));
	if (!me) return { own: [], others: [] };
	const mine = await db
		.selectDistinct({ key: questionKeySql() })
		.from(studyQuestion)
		.where(eq(studyQuestion.studyId, studyId));
	const keys = new Set(mine.map((q) => q.key));
	const own = await leaderboardsOf(db, me, null, opts);
	if (!keys.size) return { own, others: [] };
	const itemIds = [...keys].filter((k) => k.startsWith('item:')).map((k) => Number(k.slice(5)));
	const setIds = [...keys].filter((k) => k.startsWith('set:')).map((k) => Number(k.slice(4)));
	const sharing = await db
		.selectDistinct({ id: studyQuestion.studyId })
		.from(studyQuestion)
		.innerJoin(study, eq(study.id, studyQuestion.studyId))
		.where(
			and(
				ne(studyQuestion.studyId, studyId),
				// Qualification rounds are never benchmark figures, nor compared with them.
				eq(study.purpose, 'benchmark'),
				or(
					itemIds.length ? inArray(studyQuestion.itemId, itemIds) : sql`false`,
					setIds.length ? inArray(studyQuestion.setQuestionId, setIds) : sql`false`
				)
			)
		);
	const others: ComparedLeaderboard[] = [];
	for (const { id } of sharing) {
		const [other] = await db.select().from(study).where(eq(study.id, id));
		others.push(...(await leaderboardsOf(db, other, keys, opts)));
	}
	return { own, others };
}

async function leaderboardsOf(
	db: Db,
	s: typeof study.$inferSelect,
	only: Set<string> | null,
	opts: { resamples: number; seed: string }
): Promise<ComparedLeaderboard[]> {
	const plug = DESIGNS[s.design];
	if (!plug.battles) return [];
	const sets = await plug.battles(db, s.id);
	const boards: ComparedLeaderboard[] = [];
	for (const { label, battles } of sets) {
		const kept: Battle[] = only ? battles.filter((b) => only.has(b.question)) : battles;
		// In a background computation, paused between resamples (the server answers meanwhile).
		const board = await inSlices(btLeaderboardSteps(kept, opts), opts.resamples, 'resamples');
		boards.push({
			studyId: s.id,
			study: s.name,
			design: s.design,
			label,
			questions: board.questions,
			battles: board.battles,
			rows: board.rows
		});
	}
	return boards.filter((b) => b.battles > 0);
}
