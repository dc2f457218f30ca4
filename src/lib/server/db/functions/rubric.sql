-- The rubric design's database side: a score sheet's submission, with the claim of the rater's
-- next question (study_claim, study.sql) in the same statement, so a "submit + next" is one round
-- trip. The sheet's validation against the study's frozen rubric (codes, scales, rationales) and
-- the refusal messages stay in TypeScript (src/lib/server/domain/studies/designs/rubric/); this
-- function keeps what must hold under concurrency: the lease, one sheet per assignment,
-- idempotency, every shown answer scored on every sub-aspect, and the audit event.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Stores a validated score sheet (`p_scores`: [{c: answer's opaque id, s: sub-aspect code,
-- v: score, r: rationale or null}]), which must hold `p_per_answer` scores for each shown answer.
-- Side by side (`p_layout` = 'side_by_side'), answers are shown in pairs by position (A | B,
-- C | D, …): an answer at an even 0-based position was on the left. With `p_claim`, leases the
-- rater's next question of the study.
-- Returns {status: 'stored' | 'duplicate', judgementId, studyId, next?} or {status: 'refused',
-- reason: 'not_yours' | 'key_used' | 'submitted' | 'expired' | 'closed' | 'answers', state}.
-- Called by designs/rubric/submit.ts `submitScores`.
CREATE OR REPLACE FUNCTION rubric_submit(
	p_rater text, p_public_id text, p_key text, p_time_ms integer, p_layout text, p_scores jsonb,
	p_per_answer integer, p_now timestamptz, p_claim boolean,
	p_order_seed text, p_next_public_id text, p_next_seed text, p_candidate_ids text[],
	p_perms integer[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_study integer;
	v_a record;
	v_previous record;
	v_judgement integer;
	v_shown integer;
	v_stored integer;
	v_result jsonb;
BEGIN
	SELECT q.study_id INTO v_study
	FROM assignment a JOIN study_question q ON q.id = a.study_question_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_rater;
	IF NOT FOUND THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'not_yours');
	END IF;
	IF p_claim THEN
		PERFORM study_sweep(v_study, p_now);
	END IF;

	SELECT a.id, a.state, a.lease_expires_at, a.study_question_id, s.state AS study_state INTO v_a
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN study s ON s.id = q.study_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_rater
	FOR UPDATE OF a;
	SELECT id, assignment_id INTO v_previous FROM rubric_judgement WHERE idempotency_key = p_key;

	IF v_previous.id IS NOT NULL AND v_previous.assignment_id = v_a.id THEN
		v_result := jsonb_build_object('status', 'duplicate', 'judgementId', v_previous.id,
			'studyId', v_study);
	ELSIF v_previous.id IS NOT NULL THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'key_used', 'state', v_a.state);
	ELSIF v_a.state = 'submitted' THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'submitted', 'state', v_a.state);
	ELSIF v_a.study_state = 'closed' THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'closed', 'state', v_a.state);
	ELSIF v_a.state <> 'leased' OR v_a.lease_expires_at IS NULL OR v_a.lease_expires_at <= p_now THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'expired', 'state', v_a.state);
	ELSE
		SELECT count(*)::integer INTO v_shown FROM assignment_candidate WHERE assignment_id = v_a.id;
		-- Every shown answer scored p_per_answer times, and nothing else: else nothing is stored.
		IF jsonb_array_length(p_scores) <> v_shown * p_per_answer OR (
			SELECT count(DISTINCT e.v ->> 'c') FROM jsonb_array_elements(p_scores) AS e(v)
			JOIN assignment_candidate ac ON ac.assignment_id = v_a.id AND ac.public_id = e.v ->> 'c'
		) <> v_shown OR EXISTS (
			SELECT 1 FROM jsonb_array_elements(p_scores) AS e(v)
			WHERE NOT EXISTS (SELECT 1 FROM assignment_candidate ac
				WHERE ac.assignment_id = v_a.id AND ac.public_id = e.v ->> 'c')
		) THEN
			RETURN jsonb_build_object('status', 'refused', 'reason', 'answers', 'state', v_a.state);
		END IF;
		INSERT INTO rubric_judgement (assignment_id, rater_id, idempotency_key, layout, time_on_task_ms,
			submitted_at)
		VALUES (v_a.id, p_rater, p_key, p_layout, p_time_ms, p_now)
		RETURNING id INTO v_judgement;
		WITH e AS (
			SELECT e.i, ac.candidate_id, ac.position, e.v ->> 's' AS s, (e.v ->> 'v')::smallint AS v,
				nullif(e.v ->> 'r', '') AS r
			FROM jsonb_array_elements(p_scores) WITH ORDINALITY AS e(v, i)
			JOIN assignment_candidate ac ON ac.assignment_id = v_a.id AND ac.public_id = e.v ->> 'c'
		), stored AS (
			INSERT INTO rubric_score (judgement_id, candidate_id, sub_aspect, score, rationale,
				display_position, side)
			SELECT v_judgement, candidate_id, s, v, r, position + 1,
				CASE WHEN p_layout = 'side_by_side' THEN
					CASE WHEN position % 2 = 0 THEN 'left' ELSE 'right' END END
			FROM e
			RETURNING 1
		)
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		SELECT p_rater, 'rubric.submit', 'rubric_judgement', v_judgement::text, jsonb_build_object(
			'assignmentId', v_a.id, 'studyId', v_study, 'layout', p_layout,
			'scores', (SELECT jsonb_agg(jsonb_build_object('candidateId', candidate_id,
				'subAspect', s, 'score', v::integer) ORDER BY i) FROM e))
		WHERE (SELECT count(*) FROM stored) = jsonb_array_length(p_scores);
		GET DIAGNOSTICS v_stored = ROW_COUNT;
		IF v_stored <> 1 THEN
			RAISE EXCEPTION 'a score sheet must score each of its % shown answers % times', v_shown,
				p_per_answer;
		END IF;
		UPDATE assignment SET state = 'submitted', submitted_at = p_now, lease_expires_at = NULL
		WHERE id = v_a.id;
		UPDATE study_question SET completed = completed + 1 WHERE id = v_a.study_question_id;
		v_result := jsonb_build_object('status', 'stored', 'judgementId', v_judgement,
			'studyId', v_study);
	END IF;

	IF p_claim THEN
		v_result := v_result || jsonb_build_object('next', study_claim(v_study, p_rater, p_now,
			false, true, p_order_seed, p_next_public_id, p_next_seed, p_candidate_ids, p_perms));
	END IF;
	RETURN v_result;
END
$$;
