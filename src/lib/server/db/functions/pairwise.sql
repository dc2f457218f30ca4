-- The pairwise design's database side: a preference's submission, with the claim of the rater's
-- next pair (study_claim, study.sql) in the same statement, so a "submit + next" is one round trip.
-- The form's validation (outcome, strength, aspects of the frozen rubric, reason length) and the
-- refusal messages stay in TypeScript (src/lib/server/domain/studies/designs/pairwise/); this
-- function keeps what must hold under concurrency: the lease, one judgement per assignment,
-- idempotency, the sides as handed out, and the audit event.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Stores a validated preference between the two answers of an assignment: `p_outcome` 'left' |
-- 'right' | 'tie_good' | 'tie_bad' as shown, `p_strength` 'slightly' | 'clearly' or null,
-- `p_aspects` [{a: aspect code, o: 'left' | 'right' | 'tie'}]. The answers on each side are the
-- ones the claim put there (position 0 is left), copied into the judgement. With `p_claim`, leases
-- the rater's next pair of the study.
-- Returns {status: 'stored' | 'duplicate', judgementId, studyId, next?} or {status: 'refused',
-- reason: 'not_yours' | 'key_used' | 'submitted' | 'expired' | 'closed' | 'answers', state}.
-- Called by designs/pairwise/submit.ts `submitPreference`.
CREATE OR REPLACE FUNCTION pairwise_submit(
	p_rater text, p_public_id text, p_key text, p_time_ms integer, p_outcome text, p_strength text,
	p_reason text, p_aspects jsonb, p_now timestamptz, p_claim boolean,
	p_order_seed text, p_next_public_id text, p_next_seed text, p_candidate_ids text[],
	p_perms integer[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_study integer;
	v_a record;
	v_previous record;
	v_left integer;
	v_right integer;
	v_judgement integer;
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
	SELECT id, assignment_id INTO v_previous FROM pairwise_judgement WHERE idempotency_key = p_key;

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
		SELECT max(candidate_id) FILTER (WHERE position = 0), max(candidate_id) FILTER (WHERE position = 1)
		INTO v_left, v_right
		FROM assignment_candidate WHERE assignment_id = v_a.id;
		IF v_left IS NULL OR v_right IS NULL
			OR (SELECT count(*) FROM assignment_candidate WHERE assignment_id = v_a.id) <> 2 THEN
			RETURN jsonb_build_object('status', 'refused', 'reason', 'answers', 'state', v_a.state);
		END IF;
		INSERT INTO pairwise_judgement (assignment_id, rater_id, idempotency_key, left_candidate_id,
			right_candidate_id, outcome, strength, reason, time_on_task_ms, submitted_at)
		VALUES (v_a.id, p_rater, p_key, v_left, v_right, p_outcome::preference_outcome,
			p_strength::preference_strength, nullif(p_reason, ''),
			p_time_ms, p_now)
		RETURNING id INTO v_judgement;
		INSERT INTO pairwise_aspect_preference (judgement_id, aspect, outcome)
		SELECT v_judgement, e.v ->> 'a', e.v ->> 'o' FROM jsonb_array_elements(p_aspects) AS e(v);
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		VALUES (p_rater, 'pairwise.submit', 'pairwise_judgement', v_judgement::text, jsonb_build_object(
			'assignmentId', v_a.id, 'studyId', v_study, 'left', v_left, 'right', v_right,
			'outcome', p_outcome, 'strength', p_strength, 'aspects', p_aspects));
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
