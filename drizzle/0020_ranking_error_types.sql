CREATE TYPE "public"."error_type" AS ENUM('intrinsic_hallucination', 'extrinsic_hallucination', 'omission', 'other');--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD COLUMN "error_types" "error_type"[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD CONSTRAINT "error_types_need_fault" CHECK ("ranking_entry"."tag" <> 'good' or cardinality("ranking_entry"."error_types") = 0);--> statement-breakpoint

-- A ranking entry's error types (what is wrong with an okay or bad answer) travel in the
-- submission's entries and are stored by the same one statement. Body otherwise as before.
-- Stores a validated ranking (`p_entries`: [{c: answer's opaque id, r: rank, t: tag, m: comment,
-- x: error types (optional)}]
-- in the submitted order) under a lock on its assignment, with the `ranking.submit` audit event,
-- and with `p_claim` leases the physician's next question of the study (see ranking_claim).
-- Returns {status: 'stored' | 'duplicate', rankingId, studyId, next?}, or {status: 'refused',
-- facts} when the assignment is no longer open to this submission (the caller words the refusal
-- from the facts, as ranking_submission_facts gives them).
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
		PERFORM ranking_sweep(v_study, p_now);
	END IF;

	SELECT a.id, a.state, a.lease_expires_at, a.study_question_id, s.state AS study_state INTO v_a
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN ranking_study s ON s.id = q.study_id
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
		v_result := v_result || jsonb_build_object('next', ranking_claim(v_study, p_physician, p_now,
			false, true, p_order_seed, p_next_public_id, p_next_seed, p_candidate_ids, p_perms));
	END IF;
	RETURN v_result;
END
$$;

--> statement-breakpoint

-- The view tells the physician where they stand in the study (rankings submitted, questions in
-- all), inside the same statement as before. Body otherwise as before.
-- What a physician may see of an assignment (null if it is not theirs): opaque ids, letters'
-- positions and texts only; no model, response or candidate ids and no reference flag.
CREATE OR REPLACE FUNCTION ranking_assignment_view(p_public_id text, p_physician text)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN (SELECT jsonb_build_object(
		'assignment', jsonb_build_object('publicId', a.public_id, 'state', a.state,
			'leaseExpiresAt', a.lease_expires_at, 'shownAt', a.created_at),
		'study', jsonb_build_object('id', s.id, 'name', s.name, 'state', s.state,
			'instructions', s.instructions, 'allowTies', s.allow_ties),
		'question', jsonb_build_object('type', v.type, 'text', v.question, 'options', v.options,
			'falseAnswer', v.false_answer, 'reasoning', v.reasoning),
		-- Where the physician stands in the study: rankings submitted, questions in all.
		'progress', jsonb_build_object(
			'ranked', (SELECT count(*)::integer FROM assignment a2
				JOIN study_question q2 ON q2.id = a2.study_question_id
				WHERE a2.physician_id = p_physician AND a2.state = 'submitted' AND q2.study_id = q.study_id),
			'questions', (SELECT count(*)::integer FROM study_question q3 WHERE q3.study_id = q.study_id)),
		'candidates', (
			-- Each text looked up by id (a correlated subquery): a join here may be planned, for
			-- all calls of a session, as a scan of every candidate.
			SELECT coalesce(jsonb_agg(jsonb_build_object('id', ac.public_id, 'position', ac.position,
				-- The canonical presentation; candidates frozen before it existed keep their raw text.
				'text', (SELECT coalesce(c.shown_text, c.text) FROM candidate c WHERE c.id = ac.candidate_id))
				ORDER BY ac.position), '[]'::jsonb)
			FROM assignment_candidate ac
			WHERE ac.assignment_id = a.id))
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN ranking_study s ON s.id = q.study_id
	JOIN qa_item_version v ON v.id = q.item_version_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician);
END
$$;
