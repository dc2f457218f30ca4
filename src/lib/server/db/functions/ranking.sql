-- The ranking design's database side: a ranking's submission facts and its submit (with the
-- next question's claim, study.sql), so a "submit + next" costs the portal one or two statements.
-- The form's validation and the refusal messages stay in TypeScript
-- (src/lib/server/domain/studies/designs/ranking/).
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- The engine's functions were once this file's, under ranking_ names (now study.sql).
DROP FUNCTION IF EXISTS ranking_assignment_view(text, text);
DROP FUNCTION IF EXISTS ranking_sweep(integer, timestamptz);
DROP FUNCTION IF EXISTS ranking_claim(integer, text, timestamptz, boolean, boolean, text, text, text, text[], integer[]);

-- What a submission is checked against (null if the assignment is not the physician's): the
-- assignment's state, its study's, the shown answers' opaque ids and positions, and the
-- assignment an idempotency key was already used for.
-- Called by rankings.ts `store` and ranking_submit.
CREATE OR REPLACE FUNCTION ranking_submission_facts(p_public_id text, p_physician text, p_key text)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN (SELECT jsonb_build_object('assignmentId', a.id, 'state', a.state,
		'leaseExpiresAt', a.lease_expires_at, 'shownAt', a.created_at, 'studyId', q.study_id,
		'studyState', s.state, 'allowTies', s.allow_ties,
		'keyRankingId', k.id, 'keyAssignmentId', k.assignment_id,
		'shown', (
			SELECT coalesce(jsonb_agg(jsonb_build_object('id', ac.public_id, 'position', ac.position)
				ORDER BY ac.position), '[]'::jsonb)
			FROM assignment_candidate ac WHERE ac.assignment_id = a.id))
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN study s ON s.id = q.study_id
	LEFT JOIN ranking k ON k.idempotency_key = p_key
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician);
END
$$;

-- Stores a validated ranking (`p_entries`: [{c: answer's opaque id, r: rank, t: tag, m: comment,
-- x: error types (optional)}] in the submitted order) with its entries and `ranking.submit` audit
-- event in one statement, under a lock on its assignment, and with `p_claim` leases the
-- physician's next question of the study (see study_claim).
-- Returns {status: 'stored' | 'duplicate', rankingId, studyId, next?}, or {status: 'refused',
-- facts} when the assignment is no longer open to this submission (the caller words the refusal
-- from the facts, as ranking_submission_facts gives them). Called by rankings.ts `store`.
CREATE OR REPLACE FUNCTION ranking_submit(
	p_physician text, p_public_id text, p_key text, p_time_ms integer, p_entries jsonb,
	p_now timestamptz, p_claim boolean,
	p_order_seed text, p_next_public_id text, p_next_seed text, p_candidate_ids text[],
	p_perms integer[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_study integer;
	v_a record;
	v_previous record;
	v_ranking integer;
	v_shown integer;
	v_stored integer;
	v_result jsonb;
BEGIN
	SELECT q.study_id INTO v_study
	FROM assignment a JOIN study_question q ON q.id = a.study_question_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician;
	IF NOT FOUND THEN
		RETURN jsonb_build_object('status', 'refused', 'facts', null);
	END IF;
	-- Expired leases go back first, before this transaction locks any question row.
	IF p_claim THEN
		PERFORM study_sweep(v_study, p_now);
	END IF;

	SELECT a.id, a.state, a.lease_expires_at, a.study_question_id, s.state AS study_state INTO v_a
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN study s ON s.id = q.study_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician
	FOR UPDATE OF a;
	SELECT id, assignment_id INTO v_previous FROM ranking WHERE idempotency_key = p_key;

	IF v_previous.id IS NOT NULL AND v_previous.assignment_id = v_a.id THEN
		v_result := jsonb_build_object('status', 'duplicate', 'rankingId', v_previous.id, 'studyId', v_study);
	ELSIF v_previous.id IS NOT NULL OR v_a.state <> 'leased' OR v_a.lease_expires_at IS NULL
		OR v_a.lease_expires_at <= p_now OR v_a.study_state = 'closed' THEN
		RETURN jsonb_build_object('status', 'refused',
			'facts', ranking_submission_facts(p_public_id, p_physician, p_key));
	ELSE
		INSERT INTO ranking (assignment_id, physician_id, idempotency_key, time_on_task_ms,
			displayed_order, submitted_at)
		VALUES (v_a.id, p_physician, p_key, p_time_ms,
			(SELECT jsonb_agg(candidate_id ORDER BY position) FROM assignment_candidate
				WHERE assignment_id = v_a.id),
			p_now)
		RETURNING id, jsonb_array_length(displayed_order) INTO v_ranking, v_shown;
		-- The entries and the audit event in one statement; the event is written only if each
		-- shown answer was ranked once, else nothing is (the exception rolls the entries back).
		WITH e AS (
			SELECT e.i, ac.candidate_id, ac.position, (e.v ->> 'r')::smallint AS r,
				(e.v ->> 't')::tag AS t, nullif(e.v ->> 'm', '') AS m,
				-- Distinct, in the enum's order; a value off the list fails the cast, and one on a good
				-- answer the table's check.
				array(SELECT DISTINCT x::error_type FROM jsonb_array_elements_text(
					coalesce(e.v -> 'x', '[]'::jsonb)) AS x ORDER BY 1) AS x
			FROM jsonb_array_elements(p_entries) WITH ORDINALITY AS e(v, i)
			JOIN assignment_candidate ac ON ac.assignment_id = v_a.id AND ac.public_id = e.v ->> 'c'
		), stored AS (
			INSERT INTO ranking_entry (ranking_id, candidate_id, rank, tag, comment, error_types,
				display_position)
			SELECT v_ranking, candidate_id, r, t, m, x, position + 1 FROM e
			RETURNING 1
		)
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		SELECT p_physician, 'ranking.submit', 'ranking', v_ranking::text, jsonb_build_object(
			'assignmentId', v_a.id, 'studyId', v_study,
			'entries', (SELECT jsonb_agg(jsonb_build_object('candidateId', candidate_id,
				'rank', r::integer, 'tag', t, 'errorTypes', to_jsonb(x)) ORDER BY i) FROM e))
		WHERE (SELECT count(*) FROM stored) = v_shown AND v_shown = jsonb_array_length(p_entries);
		GET DIAGNOSTICS v_stored = ROW_COUNT;
		IF v_stored <> 1 THEN
			RAISE EXCEPTION 'a ranking must rank each of its % shown answers once', v_shown;
		END IF;
		UPDATE assignment SET state = 'submitted', submitted_at = p_now, lease_expires_at = NULL
		WHERE id = v_a.id;
		UPDATE study_question SET completed = completed + 1 WHERE id = v_a.study_question_id;
		v_result := jsonb_build_object('status', 'stored', 'rankingId', v_ranking, 'studyId', v_study);
	END IF;

	IF p_claim THEN
		v_result := v_result || jsonb_build_object('next', study_claim(v_study, p_physician, p_now,
			false, true, p_order_seed, p_next_public_id, p_next_seed, p_candidate_ids, p_perms));
	END IF;
	RETURN v_result;
END
$$;
