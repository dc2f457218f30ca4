-- The study engine's database side, shared by every design: the blinded view of an assignment,
-- the lease sweep and the claim of a rater's next question. A design's submit function (ranking.sql,
-- rubric.sql, …) stores its judgement and calls study_claim for the next question in the same
-- statement. The rules that need no row locks (validation, refusal messages, the shuffle) stay in
-- TypeScript (src/lib/server/domain/studies/); these functions keep the ones that must hold under
-- concurrency: leases, k raters per question, one assignment per rater and question. (PL/pgSQL
-- rather than SQL functions: a session keeps their plans.)
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- What a physician may see of an assignment (null if it is not theirs): opaque ids, letters'
-- positions and texts only; no model, response or candidate ids and no reference flag; and where
-- the physician stands in the study (judgements submitted, questions in all).
-- Called by queue.ts `getAssignmentView` and study_claim.
CREATE OR REPLACE FUNCTION study_assignment_view(p_public_id text, p_physician text)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN (SELECT jsonb_build_object(
		'assignment', jsonb_build_object('publicId', a.public_id, 'state', a.state,
			'leaseExpiresAt', a.lease_expires_at, 'shownAt', a.created_at),
		'study', jsonb_build_object('id', s.id, 'name', s.name, 'state', s.state, 'design', s.design,
			'instructions', s.instructions, 'allowTies', s.allow_ties),
		-- A QA item version of the bank, or a free-text question of a set (type 'free_text').
		'question', CASE WHEN q.set_question_id IS NULL THEN (
			SELECT jsonb_build_object('type', v.type, 'text', v.question, 'options', v.options,
				'falseAnswer', v.false_answer, 'reasoning', v.reasoning)
			FROM qa_item_version v WHERE v.id = q.item_version_id)
		ELSE (
			SELECT jsonb_build_object('type', 'free_text', 'text', sq.question, 'context', sq.context,
				'documents', sq.documents)
			FROM set_question sq WHERE sq.id = q.set_question_id) END,
		-- Where the physician stands in the study: rankings submitted, questions in all.
		'progress', jsonb_build_object(
			'ranked', (SELECT count(*)::integer FROM assignment a2
				JOIN study_question q2 ON q2.id = a2.study_question_id
				WHERE a2.physician_id = p_physician AND a2.state = 'submitted' AND q2.study_id = q.study_id),
			-- Gold checks count as questions for the rater who met them (and for no one else), so a
			-- hidden check moves the counter exactly as ordinary work does. Two plain counts: one
			-- count with the rater's checks in its filter was estimated so costly that PostgreSQL
			-- compiled it (JIT) on every call, about half a second each.
			'questions', (SELECT count(*)::integer FROM study_question q3 WHERE q3.study_id = q.study_id
				AND (NOT q3.gold OR s.purpose = 'qualification'))
				+ CASE WHEN s.purpose = 'qualification' THEN 0 ELSE (
					SELECT count(DISTINCT a3.study_question_id)::integer FROM assignment a3
					JOIN study_question q4 ON q4.id = a3.study_question_id
					WHERE a3.physician_id = p_physician AND q4.study_id = q.study_id AND q4.gold) END),
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
	JOIN study s ON s.id = q.study_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_physician);
END
$$;

-- Returns a study's expired leases to its queue; skips leases another sweep holds, and updates
-- question rows in id order so concurrent sweeps never deadlock on them. Physicians' queue rows
-- parked while a reopened question was full go back to their orders.
-- Called by queue.ts `expireLeases`, study_claim and each design's submit function.
CREATE OR REPLACE FUNCTION study_sweep(p_study integer, p_now timestamptz)
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
-- Called by queue.ts `claimNext` and each design's submit function.
CREATE OR REPLACE FUNCTION study_claim(
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
	v_purpose study_purpose;
	v_qualification integer;
	v_gold_every integer;
	v_per_attempt integer;
	v_max_attempts integer;
	v_submitted integer;
	v_gold boolean := false;
	v_hold rater_hold_kind;
BEGIN
	IF p_sweep THEN
		PERFORM study_sweep(p_study, p_now);
	END IF;
	SELECT state, lease_minutes, purpose, qualification_study_id, gold_every, questions_per_attempt,
		max_attempts
	INTO v_state, v_lease_minutes, v_purpose, v_qualification, v_gold_every, v_per_attempt,
		v_max_attempts
	FROM study WHERE id = p_study;
	IF NOT FOUND OR v_state <> 'open' THEN
		RETURN jsonb_build_object('status', 'none', 'reason', 'not_open');
	END IF;
	-- A study that requires a qualification round admits those who passed it.
	IF v_qualification IS NOT NULL AND NOT EXISTS (SELECT 1 FROM qualification_attempt
		WHERE study_id = v_qualification AND rater_id = p_physician AND passed) THEN
		RETURN jsonb_build_object('status', 'none', 'reason', 'not_qualified');
	END IF;
	-- A rater the organisers paused, or sent back to training, in this study gets nothing (their
	-- leases were given back when the hold was placed: quality/holds.ts).
	SELECT kind INTO v_hold FROM rater_hold
	WHERE study_id = p_study AND rater_id = p_physician AND lifted_at IS NULL;
	IF FOUND THEN
		RETURN jsonb_build_object('status', 'none',
			'reason', CASE v_hold WHEN 'pause' THEN 'paused' ELSE 'retraining' END);
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
			'view', CASE WHEN p_with_view THEN study_assignment_view(v_held, p_physician) END);
	END IF;
	-- A qualification round goes in attempts: a passed round, or one whose attempts are used (the
	-- round's own and the rater's grants), gives nothing more; a finished attempt waits for its
	-- score (quality/qualification.ts scoreAttempts) before the next one starts.
	IF v_purpose = 'qualification' THEN
		-- The round's attempts, and any an organiser added for this rater (quality/grants.ts).
		v_max_attempts := v_max_attempts + coalesce((SELECT sum(g.attempts)::integer
			FROM qualification_grant g WHERE g.study_id = p_study AND g.rater_id = p_physician), 0);
		IF EXISTS (SELECT 1 FROM qualification_attempt
			WHERE study_id = p_study AND rater_id = p_physician AND passed) THEN
			RETURN jsonb_build_object('status', 'none', 'reason', 'qualified');
		END IF;
		SELECT count(*)::integer INTO v_submitted FROM assignment a
		JOIN study_question q ON q.id = a.study_question_id
		WHERE q.study_id = p_study AND a.physician_id = p_physician AND a.state = 'submitted';
		IF v_submitted >= v_per_attempt * v_max_attempts THEN
			RETURN jsonb_build_object('status', 'none', 'reason', 'attempts_used');
		END IF;
		IF v_submitted > 0 AND v_submitted % v_per_attempt = 0 AND NOT EXISTS (
			SELECT 1 FROM qualification_attempt WHERE study_id = p_study AND rater_id = p_physician
				AND attempt = v_submitted / v_per_attempt) THEN
			RETURN jsonb_build_object('status', 'none', 'reason', 'attempt_finished');
		END IF;
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
		WHERE q.study_id = p_study AND (NOT q.gold OR v_purpose = 'qualification') AND NOT EXISTS (
			SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_physician);
		UPDATE study_physician SET queued_at = p_now
		WHERE study_id = p_study AND physician_id = p_physician;
	END IF;

	-- A hidden gold check: one claim in every block of `gold_every` (this physician's claims 1..N,
	-- N+1..2N, …) is a gold question they have not had, at a place in the block drawn from their
	-- order seed, so the rate is exact and the place unpredictable. Gold questions never take one
	-- of the k slots; their judgements never count (quality.sql).
	IF v_gold_every IS NOT NULL AND v_purpose = 'benchmark' THEN
		SELECT presented INTO v_presented FROM study_physician
		WHERE study_id = p_study AND physician_id = p_physician;
		IF v_presented % v_gold_every = (('x' || substr(md5(v_seed || ':gold:' ||
			(v_presented / v_gold_every)::text), 1, 8))::bit(32)::bigint % v_gold_every) THEN
			SELECT q.id INTO v_question FROM study_question q
			WHERE q.study_id = p_study AND q.gold AND NOT EXISTS (
				SELECT 1 FROM assignment a WHERE a.study_question_id = q.id AND a.physician_id = p_physician)
			ORDER BY md5(v_seed || ':' || q.id::text) COLLATE "C", q.id
			LIMIT 1;
			v_gold := FOUND;
		END IF;
	END IF;

	IF NOT v_gold THEN
	SELECT pq.position, pq.study_question_id INTO v_position, v_question
	FROM study_physician_question pq JOIN study_question q ON q.id = pq.study_question_id
	WHERE pq.study_id = p_study AND pq.physician_id = p_physician
		AND (q.open_slots > 0 OR (q.gold AND v_purpose = 'qualification'))
		AND (NOT q.gold OR v_purpose = 'qualification')
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
				AND pq.position < v_position
				AND ((q.open_slots = 0 AND NOT q.gold) OR (q.gold AND v_purpose <> 'qualification'))
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
	-- A qualification round's questions are for every rater: they hold no slots.
	IF v_purpose = 'benchmark' THEN
		UPDATE study_question SET open_slots = open_slots - 1 WHERE id = v_question;
	END IF;
	END IF;
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
	IF v_n = 2 THEN
		-- Two answers (a pairwise unit): counterbalanced rather than shuffled.
		PERFORM study_place_pair(p_study, p_physician, v_question, v_assignment, p_candidate_ids,
			p_perms[2]);
		RETURN jsonb_build_object('status', 'assigned', 'publicId', p_public_id, 'resumed', false,
			'view', CASE WHEN p_with_view THEN study_assignment_view(p_public_id, p_physician) END);
	END IF;
	INSERT INTO assignment_candidate (assignment_id, candidate_id, public_id, position)
	SELECT v_assignment, c.id, p_candidate_ids[p.pos + 1], p.pos
	FROM generate_series(0, v_n - 1) AS p(pos)
	JOIN (
		SELECT id, (row_number() OVER (ORDER BY id) - 1)::integer AS idx
		FROM candidate WHERE study_question_id = v_question
	) c ON c.idx = p_perms[v_n * (v_n - 1) / 2 + p.pos + 1];

	RETURN jsonb_build_object('status', 'assigned', 'publicId', p_public_id, 'resumed', false,
		'view', CASE WHEN p_with_view THEN study_assignment_view(p_public_id, p_physician) END);
END
$$;

-- Places the two answers of a unit left and right so that each model sits left about half the
-- time in each physician's own work and across the physicians of the unit: the answer whose model
-- the physician has seen on the left less often (minus on the right, study_physician_side) goes
-- left; when both are even, the one the unit's earlier physicians saw on the left less often; when
-- that is even too, the seeded shuffle's choice (`p_first`, the index that shuffle puts first).
-- The physician's counts are updated with the placement, so the sides are stored as handed out.
-- Called by study_claim.
CREATE OR REPLACE FUNCTION study_place_pair(
	p_study integer, p_physician text, p_question integer, p_assignment integer,
	p_candidate_ids text[], p_first integer
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	v_ids integer[];
	v_sources text[];
	v_lead1 integer;
	v_lead2 integer;
	v_unit integer;
	v_first integer;
BEGIN
	SELECT array_agg(id ORDER BY id), array_agg(coalesce(model_id::text, 'reference') ORDER BY id)
	INTO v_ids, v_sources
	FROM candidate WHERE study_question_id = p_question;
	SELECT coalesce(max(lead) FILTER (WHERE source = v_sources[1]), 0),
		coalesce(max(lead) FILTER (WHERE source = v_sources[2]), 0)
	INTO v_lead1, v_lead2
	FROM study_physician_side
	WHERE study_id = p_study AND physician_id = p_physician AND source = ANY (v_sources);
	-- Earlier physicians of this unit: times the first answer was left minus times the second was.
	SELECT coalesce(sum(CASE WHEN ac.candidate_id = v_ids[1] THEN 1 ELSE -1 END), 0)::integer
	INTO v_unit
	FROM assignment a JOIN assignment_candidate ac ON ac.assignment_id = a.id AND ac.position = 0
	WHERE a.study_question_id = p_question AND a.id <> p_assignment;
	v_first := CASE
		WHEN v_lead1 <> v_lead2 THEN CASE WHEN v_lead1 < v_lead2 THEN 1 ELSE 2 END
		WHEN v_unit <> 0 THEN CASE WHEN v_unit < 0 THEN 1 ELSE 2 END
		ELSE coalesce(p_first, 0) + 1 END;
	INSERT INTO assignment_candidate (assignment_id, candidate_id, public_id, position)
	VALUES (p_assignment, v_ids[v_first], p_candidate_ids[1], 0),
		(p_assignment, v_ids[3 - v_first], p_candidate_ids[2], 1);
	INSERT INTO study_physician_side (study_id, physician_id, source, lead)
	VALUES (p_study, p_physician, v_sources[v_first], 1), (p_study, p_physician, v_sources[3 - v_first], -1)
	ON CONFLICT (study_id, physician_id, source)
	DO UPDATE SET lead = study_physician_side.lead + excluded.lead;
END
$$;
