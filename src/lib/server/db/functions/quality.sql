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

-- Sets a study's slots back to what its counting judgements leave open, for the questions a
-- rater judged (an exclusion of that rater was made or revoked): open_slots = k − submitted
-- judgements that count − leases still held (a lease past its time holds its slot until a sweep
-- returns it, as study_sweep counts). A question that fell below k raters reopens for others (the
-- excluded rater keeps their assignment, so no claim gives it to them again) and goes back into
-- the orders of the physicians whose claims parked it; revoking closes it again (never below 0:
-- a rater who claimed it meanwhile keeps their judgement). Gold questions never take slots, and a
-- qualification round's questions are never reopened. Question rows are locked in id order, as
-- study_sweep updates them, so the two never deadlock. Returns the questions whose slots changed.
-- Called by domain/exclusions (excludeJudgements, revokeExclusion), once per study the rater
-- judged in (exclusion_reopen).
CREATE OR REPLACE FUNCTION study_reopen(p_study integer, p_rater text, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	v_k integer;
	v_purpose study_purpose;
	v_state study_state;
	v_reopened integer[];
	v_changed integer;
BEGIN
	SELECT raters_per_question, purpose, state INTO v_k, v_purpose, v_state
	FROM study WHERE id = p_study;
	IF NOT FOUND OR v_purpose <> 'benchmark' OR v_state = 'draft' THEN
		RETURN 0;
	END IF;
	PERFORM 1 FROM study_question q
	WHERE q.study_id = p_study AND NOT q.gold AND EXISTS (
		SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_rater)
	ORDER BY q.id
	FOR NO KEY UPDATE OF q;
	WITH wanted AS (
		SELECT q.id, q.open_slots AS was, greatest(0, v_k - (
			SELECT count(*) FROM assignment a
			WHERE a.study_question_id = q.id AND (a.state = 'leased' OR (a.state = 'submitted'
				AND judgement_counts(a.physician_id, p_study, a.submitted_at)))))::smallint AS slots
		FROM study_question q
		WHERE q.study_id = p_study AND NOT q.gold AND EXISTS (
			SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_rater)
	), changed AS (
		UPDATE study_question q SET open_slots = w.slots
		FROM wanted w
		WHERE q.id = w.id AND q.open_slots <> w.slots
		RETURNING q.id, w.was, w.slots
	)
	SELECT array_agg(id ORDER BY id) FILTER (WHERE was = 0 AND slots > 0), count(*)::integer
	INTO v_reopened, v_changed FROM changed;
	IF v_reopened IS NOT NULL THEN
		WITH moved AS (
			DELETE FROM study_physician_question_parked WHERE study_question_id = ANY (v_reopened)
			RETURNING study_id, physician_id, position, study_question_id
		)
		INSERT INTO study_physician_question (study_id, physician_id, position, study_question_id)
		SELECT study_id, physician_id, position, study_question_id FROM moved;
	END IF;
	RETURN v_changed;
END
$$;

-- study_reopen for every study a rater has judged in (p_study null) or for one study.
-- Called by domain/exclusions.
CREATE OR REPLACE FUNCTION exclusion_reopen(p_rater text, p_study integer, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	v_study integer;
	v_changed integer := 0;
BEGIN
	FOR v_study IN
		SELECT DISTINCT q.study_id FROM assignment a
		JOIN study_question q ON q.id = a.study_question_id
		WHERE a.physician_id = p_rater AND (p_study IS NULL OR q.study_id = p_study)
		ORDER BY 1
	LOOP
		v_changed := v_changed + study_reopen(v_study, p_rater, p_now);
	END LOOP;
	RETURN v_changed;
END
$$;
