// The one test every statistic, leaderboard and export applies to a judgement it reads: it counts
// unless a standing exclusion of its rater covers its study and submission time (the SQL function
// judgement_counts, quality.sql), and it is not a gold question's (gold questions measure raters
// and are never counted). Kept as SQL fragments so each query filters where it reads judgements.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * Whether a study judgement counts in the figures: by its rater, its study and its submission
 * time, on a question that is not gold (`gold`: the study question's gold column or alias).
 */
export function countsInFigures(
	rater: SQLWrapper,
	studyId: SQLWrapper | number,
	at: SQLWrapper,
	gold: SQLWrapper
): SQL {
	// The NOT IN is one hashed lookup of the raters with a standing exclusion, read once per query:
	// judgement_counts (a subquery per call, never inlined) runs only for those raters' judgements.
	return sql`((${rater} not in (select rater_id from exclusion where revoked_at is null)
		or judgement_counts(${rater}, ${studyId}, ${at})) and not ${gold})`;
}

/** Whether a reviewer's review counts: only exclusions of every study (study null) reach reviews. */
export function reviewCounts(reviewer: SQLWrapper, at: SQLWrapper): SQL {
	return sql`(${reviewer} not in (select rater_id from exclusion where revoked_at is null)
		or judgement_counts(${reviewer}, null, ${at}))`;
}

/**
 * A cheap description of the exclusions standing or revoked: changes whenever one is made or
 * revoked, so cached reports keyed by a fingerprint that includes it are recomputed.
 */
export const exclusionsFingerprintSql = sql`(select count(*) || ':' || coalesce(max(id), 0) || ':'
	|| count(revoked_at) || ':' || coalesce(extract(epoch from max(revoked_at))::text, '')
	from exclusion)`;
