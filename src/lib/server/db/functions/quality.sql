-- Whether a judgement counts in the figures: raters' exclusions (an organiser's, or a withdrawal
-- whose consent text excludes withdrawn judgements) take judgements out of every statistic,
-- leaderboard and export while they stand; revoking one puts the judgements back. Statistics
-- queries call judgement_counts(rater, study, submitted at) beside `not study_question.gold`
-- (gold questions measure raters and never count either).
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts).

CREATE OR REPLACE FUNCTION judgement_counts(p_rater text, p_study integer, p_at timestamptz)
RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT NOT EXISTS (
		SELECT 1 FROM exclusion e
		WHERE e.rater_id = p_rater AND e.revoked_at IS NULL
			AND (e.study_id IS NULL OR e.study_id = p_study)
			AND (e.from_at IS NULL OR p_at >= e.from_at)
			AND (e.until_at IS NULL OR p_at < e.until_at))
$$;
