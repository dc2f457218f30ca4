-- The ranking screen's database side: each physician action is one call of a function below, so
-- a "submit + next" costs the portal two statements (the submission facts, then the submission)
-- instead of a dozen. The rules that need no row locks (the form's validation, the refusal
-- messages, the shuffle) stay in TypeScript (src/lib/server/domain/ranking/); these functions
-- keep the ones that must hold under concurrency: leases, k raters per question, one assignment
-- per physician and question, idempotency and the audit event. (PL/pgSQL rather than SQL
-- functions: a session keeps their plans, where a SQL function whose body cannot be inlined is
-- planned again at every call.)
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- What a physician may see of an assignment (null if it is not theirs): opaque ids, letters'
-- positions and texts only; no model, response or candidate ids and no reference flag; and where
-- the physician stands in the study (rankings submitted, questions in all).
-- Called by queue.ts `getAssignmentView` and ranking_claim.
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
	JOIN ranking_study s ON s.id = q.study_id
	LEFT JOIN ranking k ON k.idempotency_key = p_key
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician);
END
$$;

-- Returns a study's expired leases to its queue; skips leases another sweep holds, and updates
-- question rows in id order so concurrent sweeps never deadlock on them. Physicians' queue rows
-- parked while a reopened question was full go back to their orders.
-- Called by queue.ts `expireLeases`, ranking_claim and ranking_submit.
CREATE OR REPLACE FUNCTION ranking_sweep(p_study integer, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	v_ids integer[];
	v_counts integer[];
BEGIN
	WITH expired AS (
		UPDATE assignment SET state = 'expired'
		WHERE id IN (
			SELECT a.id FROM assignment a JOIN study_question q ON q.id = a.study_question_id
			WHERE a.state = 'leased' AND a.lease_expires_at <= p_now AND q.study_id = p_study
			FOR UPDATE OF a SKIP LOCKED)
		RETURNING study_question_id
	), per_question AS (
		SELECT study_question_id AS id, count(*)::integer AS n FROM expired GROUP BY 1
	)
	SELECT array_agg(id ORDER BY id), array_agg(n ORDER BY id) INTO v_ids, v_counts FROM per_question;
	IF v_ids IS NULL THEN
		RETURN 0;
	END IF;
	FOR i IN 1 .. cardinality(v_ids) LOOP
		UPDATE study_question SET open_slots = open_slots + v_counts[i] WHERE id = v_ids[i];
	END LOOP;
	-- The reopened questions go back into the orders of the physicians whose claims parked them
	-- (after the updates above: a claim parking one of them holds it FOR SHARE, so this statement
	-- sees its parked rows).
	WITH moved AS (
		DELETE FROM study_physician_question_parked WHERE study_question_id = ANY (v_ids)
		RETURNING study_id, physician_id, position, study_question_id
	)
	INSERT INTO study_physician_question (study_id, physician_id, position, study_question_id)
	SELECT study_id, physician_id, position, study_question_id FROM moved;
	RETURN (SELECT sum(n)::integer FROM unnest(v_counts) AS n);
END
$$;

-- Hands the physician the next question of an open study through a lease: their live lease if
-- they hold one, else the first question of their seeded order (study_physician_question, filled
-- from the order seed at their first claim) that has a free slot and that they never had, claimed
-- with FOR UPDATE SKIP LOCKED so concurrent physicians never exceed k per question. Full questions
-- it walks past are parked (study_physician_question_parked) until a sweep reopens them. The caller
-- brings the new ids: the order seed (used at a first claim only), the assignment's public id and
-- shuffle seed, opaque ids for the answers, and `p_perms`, the seeded shuffle of n answers for
-- every n (indices 0..n-1, concatenated for n = 1, 2, …: the one for n starts at n(n-1)/2 + 1),
-- so the displayed order is exactly what `seededShuffle` gives for the stored seed.
-- Returns {status: 'assigned', publicId, resumed, view?} or {status: 'none', reason}.
-- Called by queue.ts `claimNext` and ranking_submit.
CREATE OR REPLACE FUNCTION ranking_claim(
	p_study integer, p_physician text, p_now timestamptz, p_sweep boolean, p_with_view boolean,
	p_order_seed text, p_public_id text, p_seed text, p_candidate_ids text[], p_perms integer[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_state study_state;
	v_lease_minutes integer;
	v_held text;
	v_seed text;
	v_queued timestamptz;
	v_position integer;
	v_question integer;
	v_assignment integer;
	v_presented integer;
	v_n integer;
BEGIN
	IF p_sweep THEN
		PERFORM ranking_sweep(p_study, p_now);
	END IF;
	SELECT state, lease_minutes INTO v_state, v_lease_minutes FROM ranking_study WHERE id = p_study;
	IF NOT FOUND OR v_state <> 'open' THEN
		RETURN jsonb_build_object('status', 'none', 'reason', 'not_open');
	END IF;
	-- One claim at a time per physician, so two tabs cannot take two questions.
	PERFORM pg_advisory_xact_lock(hashtext('rank:' || p_physician));
	SELECT a.public_id INTO v_held
	FROM assignment a JOIN study_question q ON q.id = a.study_question_id
	WHERE a.physician_id = p_physician AND a.state = 'leased' AND a.lease_expires_at > p_now
		AND q.study_id = p_study
	LIMIT 1;
	IF v_held IS NOT NULL THEN
		RETURN jsonb_build_object('status', 'assigned', 'publicId', v_held, 'resumed', true,
			'view', CASE WHEN p_with_view THEN ranking_assignment_view(v_held, p_physician) END);
	END IF;

	SELECT order_seed, queued_at INTO v_seed, v_queued
	FROM study_physician WHERE study_id = p_study AND physician_id = p_physician;
	IF NOT FOUND THEN
		INSERT INTO study_physician (study_id, physician_id, order_seed)
		VALUES (p_study, p_physician, p_order_seed);
		v_seed := p_order_seed;
	END IF;
	IF v_queued IS NULL THEN
		-- Presentations before the order was stored (assignments made without this function).
		UPDATE study_physician SET presented = (
			SELECT count(*)::integer FROM assignment a JOIN study_question q ON q.id = a.study_question_id
			WHERE q.study_id = p_study AND a.physician_id = p_physician)
		WHERE study_id = p_study AND physician_id = p_physician;
	END IF;
	IF v_queued IS NULL THEN
		INSERT INTO study_physician_question (study_id, physician_id, position, study_question_id)
		SELECT p_study, p_physician,
			row_number() OVER (ORDER BY md5(v_seed || ':' || q.id::text) COLLATE "C", q.id), q.id
		FROM study_question q
		WHERE q.study_id = p_study AND NOT EXISTS (
			SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_physician);
		UPDATE study_physician SET queued_at = p_now
		WHERE study_id = p_study AND physician_id = p_physician;
	END IF;

	SELECT pq.position, pq.study_question_id INTO v_position, v_question
	FROM study_physician_question pq JOIN study_question q ON q.id = pq.study_question_id
	WHERE pq.study_id = p_study AND pq.physician_id = p_physician AND q.open_slots > 0
		AND NOT EXISTS (
			SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_physician)
	ORDER BY pq.position
	LIMIT 1
	-- NO KEY UPDATE: the claim changes open_slots only, so it need not wait for, nor skip, questions
	-- whose rows are merely referenced (key-share locked) by concurrent inserts of assignments.
	FOR NO KEY UPDATE OF q SKIP LOCKED;
	IF NOT FOUND THEN
		-- Nothing is left (the rows walked past stay: there is no next claim to spare them).
		RETURN jsonb_build_object('status', 'none', 'reason', 'exhausted');
	END IF;
	-- The rows this claim walked past whose question is full leave the order (parked, with their
	-- position) so later claims do not walk past them again: a claim reads the head of the order
	-- however far the study is. FOR SHARE SKIP LOCKED: a question being reopened by a sweep, or
	-- claimed or completed by another transaction, is left in place this time; one parked here
	-- makes a reopening sweep wait for this transaction, so it moves the row back.
	-- (Usually the claim takes the head of the order and there is nothing to look at. Ordered and
	-- limited, so the session's plan walks the order's key instead of joining every question.)
	IF EXISTS (SELECT 1 FROM study_physician_question
		WHERE study_id = p_study AND physician_id = p_physician AND position < v_position) THEN
		WITH walked AS (
			SELECT pq.position
			FROM study_physician_question pq JOIN study_question q ON q.id = pq.study_question_id
			WHERE pq.study_id = p_study AND pq.physician_id = p_physician
				AND pq.position < v_position AND q.open_slots = 0
			ORDER BY pq.position
			LIMIT 1000
			FOR SHARE OF q SKIP LOCKED
		), parked AS (
			DELETE FROM study_physician_question pq USING walked w
			WHERE pq.study_id = p_study AND pq.physician_id = p_physician AND pq.position = w.position
			RETURNING pq.study_question_id, pq.physician_id, pq.study_id, pq.position
		)
		INSERT INTO study_physician_question_parked (study_question_id, physician_id, study_id, position)
		SELECT study_question_id, physician_id, study_id, position FROM parked;
	END IF;

	DELETE FROM study_physician_question
	WHERE study_id = p_study AND physician_id = p_physician AND position = v_position;
	UPDATE study_question SET open_slots = open_slots - 1 WHERE id = v_question;
	UPDATE study_physician SET presented = presented + 1
	WHERE study_id = p_study AND physician_id = p_physician
	RETURNING presented INTO v_presented;
	INSERT INTO assignment (study_question_id, physician_id, public_id, seed, presentation_position,
		lease_expires_at, created_at)
	VALUES (v_question, p_physician, p_public_id, p_seed, v_presented,
		p_now + v_lease_minutes * interval '1 minute', p_now)
	RETURNING id INTO v_assignment;

	SELECT count(*)::integer INTO v_n FROM candidate WHERE study_question_id = v_question;
	IF v_n > cardinality(p_candidate_ids) OR v_n * (v_n + 1) / 2 > cardinality(p_perms) THEN
		RAISE EXCEPTION 'question % has % answers, more than the claim brought ids for', v_question, v_n;
	END IF;
	INSERT INTO assignment_candidate (assignment_id, candidate_id, public_id, position)
	SELECT v_assignment, c.id, p_candidate_ids[p.pos + 1], p.pos
	FROM generate_series(0, v_n - 1) AS p(pos)
	JOIN (
		SELECT id, (row_number() OVER (ORDER BY id) - 1)::integer AS idx
		FROM candidate WHERE study_question_id = v_question
	) c ON c.idx = p_perms[v_n * (v_n - 1) / 2 + p.pos + 1];

	RETURN jsonb_build_object('status', 'assigned', 'publicId', p_public_id, 'resumed', false,
		'view', CASE WHEN p_with_view THEN ranking_assignment_view(p_public_id, p_physician) END);
END
$$;

-- Stores a validated ranking (`p_entries`: [{c: answer's opaque id, r: rank, t: tag, m: comment,
-- x: error types (optional)}] in the submitted order) with its entries and `ranking.submit` audit
-- event in one statement, under a lock on its assignment, and with `p_claim` leases the
-- physician's next question of the study (see ranking_claim).
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
