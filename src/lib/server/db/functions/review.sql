-- The reviewer's judgement path as database functions: one round trip per "submit and next".
-- The lease, blinding, balancing, secondary-task, notes, outcome and audit rules live here once;
-- src/lib/server/domain/review (queue.ts, reviews.ts) calls them.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Earlier argument lists and return types (the screen's public id and hidden gold checks came later).
DROP FUNCTION IF EXISTS review_submit_and_next(text, integer, text, verdict, integer,
	feedback_category, text, dispute_category, text, integer, timestamptz, text);
DROP FUNCTION IF EXISTS review_claim_next(text, timestamptz, text);
DROP FUNCTION IF EXISTS review_check_submit_and_next(text, integer, text, verdict, integer, text,
	text, integer, timestamptz, text, text);

-- A review row as the application reads it (camel-case keys), with whether it was made without the
-- item's passage. Used by review_submit; reviews.ts reads its JSON. PL/pgSQL, not SQL: a SQL
-- function called from PL/pgSQL with a row argument is parsed and planned on every call.
CREATE OR REPLACE FUNCTION review_json(r review) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	RETURN jsonb_build_object('id', r.id, 'taskId', r.task_id, 'itemId', r.item_id,
		'itemVersionId', r.item_version_id, 'round', r.round, 'reviewerId', r.reviewer_id,
		'revision', r.revision, 'supersedesId', r.supersedes_id, 'verdict', r.verdict,
		'relevance', r.relevance, 'feedback', r.feedback, 'timeOnTaskMs', r.time_on_task_ms,
		'idempotencyKey', r.idempotency_key, 'submittedAt', r.submitted_at,
		'withoutPassage', r.without_passage);
END $$;

-- The feedback note and formal dispute given with a review (either may be absent), with the
-- dispute's audit event. Used by review_submit and by reviews.ts `amendReview`.
CREATE OR REPLACE FUNCTION review_record_notes(
	p_user text, p_review integer, p_feedback_category feedback_category, p_feedback text,
	p_dispute_category dispute_category, p_dispute_reason text
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	r review;
	v_dispute integer;
BEGIN
	SELECT * INTO r FROM review WHERE id = p_review;
	IF p_feedback IS NOT NULL AND p_feedback_category IS NOT NULL THEN
		INSERT INTO feedback_note (item_id, item_version_id, review_id, author_id, category, body)
		VALUES (r.item_id, r.item_version_id, r.id, p_user, p_feedback_category, p_feedback);
	END IF;
	IF p_dispute_reason IS NOT NULL AND p_dispute_category IS NOT NULL THEN
		INSERT INTO dispute (item_id, item_version_id, review_id, raised_by, category, reason)
		VALUES (r.item_id, r.item_version_id, r.id, p_user, p_dispute_category, p_dispute_reason)
		RETURNING id INTO v_dispute;
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		VALUES (p_user, 'dispute.open', 'dispute', v_dispute::text,
			jsonb_build_object('itemId', r.item_id, 'category', p_dispute_category));
	END IF;
END $$;

-- Whether a reopened task (review_task_reopen) may go to a reviewer: not when they held or did any
-- other task of its item, retired or current, primary or secondary (the excluded reviewer, the
-- other round's reviewer). Called by review_claim_next for reopened tasks only.
CREATE OR REPLACE FUNCTION review_task_open_to(p_task integer, p_item integer, p_user text)
RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT NOT EXISTS (SELECT 1 FROM review_task o WHERE o.item_id = p_item AND o.id <> p_task
		AND (o.done_by = p_user OR o.leased_by = p_user))
$$;

-- Leases the next item to a reviewer (FOR UPDATE SKIP LOCKED: two reviewers never hold the same
-- task). The reviewer's unexpired lease if they hold one; else an expired lease of someone else
-- (secondary round first), then fresh secondary work, then fresh primary work in queue order
-- (sort key, then id) from inside or outside the secondary sample so that the reviewer's checked
-- share stays at the dataset's share (sampled + 1/2 < share x (reviewed + 1) prefers the sample,
-- both read from the reviewer's reviewer_tally row: constant time whatever their history),
-- falling back to whatever is left. A reviewer's own skips and the secondary round of items they
-- reviewed themselves are never offered to them, nor tasks awaiting their item's passage (out of
-- the partial index review_task_claimable, so skipping them costs nothing). No row when nothing is
-- left, when the reviewers' qualification round is required and the reviewer has not passed it, or
-- while an exclusion of every study leaves the reviewer's reviews out. A task reopened after an
-- exclusion goes to nobody who held or did another task of its item (review_task_open_to).
-- With p_checks, one claim in every check_every of the reviewer's claims may be a hidden gold
-- check instead (a review_check row: check_id set, task_id and item_id null). Each fresh lease gets
-- p_public as the id the reviewer's screen shows. Called by queue.ts `claimNext` (no checks),
-- `claimWork` and review_submit_and_next.
CREATE OR REPLACE FUNCTION review_claim_next(p_user text, p_now timestamptz, p_token text,
	p_public text, p_checks boolean)
RETURNS TABLE (task_id integer, item_id integer, round review_round, lease_token text,
	leased_at timestamptz, lease_expires_at timestamptz, public_id text, check_id integer)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	v_id integer;
	v_check_every integer;
	v_refused boolean;
	v_claim integer;
	v_gold integer;
BEGIN
	-- Who gets no work, read in one statement (each refusal is one index lookup):
	-- when the reviewers' qualification round is required, a reviewer who has not passed an
	-- attempt (quality/review-round.ts); a reviewer whose reviews an exclusion of every study
	-- leaves out right now, since what they would review would not count (queue.ts `claimNext`
	-- gives the reason); a reviewer the organisers paused, or sent back to training (their leases
	-- were given back when the hold was placed: quality/review-holds.ts).
	SELECT (SELECT r.check_every FROM reviewer_round r WHERE r.id = 1),
		CASE WHEN coalesce((SELECT r.required FROM reviewer_round r WHERE r.id = 1), false)
				AND NOT EXISTS (SELECT 1 FROM review_qualification_attempt a
					WHERE a.reviewer_id = p_user AND a.passed) THEN true
			WHEN EXISTS (SELECT 1 FROM exclusion e WHERE e.rater_id = p_user
					AND e.revoked_at IS NULL AND e.study_id IS NULL) THEN
				NOT judgement_counts(p_user, NULL, p_now) OR EXISTS (SELECT 1 FROM rater_hold h
					WHERE h.rater_id = p_user AND h.study_id IS NULL AND h.lifted_at IS NULL)
			ELSE EXISTS (SELECT 1 FROM rater_hold h
				WHERE h.rater_id = p_user AND h.study_id IS NULL AND h.lifted_at IS NULL) END
	INTO v_check_every, v_refused;
	IF v_refused THEN
		RETURN;
	END IF;
	-- The reviewer's unexpired lease of a live task, else of a hidden check.
	RETURN QUERY (SELECT t.id, t.item_id, t.round, t.lease_token, t.leased_at, t.lease_expires_at,
		t.public_id, NULL::integer
	FROM review_task t
	WHERE t.state = 'leased' AND t.leased_by = p_user AND t.lease_expires_at > p_now
	LIMIT 1)
	UNION ALL
	(SELECT NULL::integer, NULL::integer, c.round, c.lease_token, c.leased_at,
		c.lease_expires_at, c.public_id, c.id
	FROM review_check c
	WHERE c.reviewer_id = p_user AND c.state = 'leased' AND c.lease_expires_at > p_now
	LIMIT 1)
	LIMIT 1;
	IF FOUND THEN
		RETURN;
	END IF;

	-- An expired lease of someone else, the secondary round's first, then the oldest.
	SELECT t.id INTO v_id FROM review_task t
	WHERE t.state = 'leased' AND t.lease_expires_at <= p_now
		AND NOT t.awaits_passage AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND (NOT t.reopened OR review_task_open_to(t.id, t.item_id, p_user))
		AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
	ORDER BY t.round <> 'secondary', t.lease_expires_at LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	IF v_id IS NULL THEN
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'secondary'
			AND NOT t.awaits_passage AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND (NOT t.reopened OR review_task_open_to(t.id, t.item_id, p_user))
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		-- The datasets whose sample this reviewer should take next: an InitPlan, read once.
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'primary'
			AND EXISTS (SELECT 1 FROM qa_item i WHERE i.id = t.item_id
				AND i.in_secondary_sample = (i.dataset_id = ANY (ARRAY(
					SELECT d.id FROM dataset d
					LEFT JOIN reviewer_tally m ON m.dataset_id = d.id AND m.user_id = p_user
					WHERE coalesce(m.sampled, 0) + 0.5 < d.secondary_share * (coalesce(m.reviewed, 0) + 1)))))
			AND NOT t.awaits_passage AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND (NOT t.reopened OR review_task_open_to(t.id, t.item_id, p_user))
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'primary'
			AND NOT t.awaits_passage AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND (NOT t.reopened OR review_task_open_to(t.id, t.item_id, p_user))
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		RETURN;
	END IF;

	-- A hidden gold check in place of this claim: one claim in every block of check_every (this
	-- reviewer's claims 0..N-1, N..2N-1, …) at a place in the block drawn from the reviewer and the
	-- block, when a live gold pair they have not had (in checks or the round) is left. The check
	-- takes the round and lease length of the live task it stands in for; the task stays queued.
	-- Claims are counted only while checks are on.
	IF p_checks AND v_check_every IS NOT NULL THEN
		INSERT INTO reviewer_claims AS m (user_id, claims) VALUES (p_user, 1)
		ON CONFLICT (user_id) DO UPDATE SET claims = m.claims + 1
		RETURNING m.claims - 1 INTO v_claim;
		IF v_claim % v_check_every = (('x' || substr(md5(p_user || ':check:' ||
			(v_claim / v_check_every)::text), 1, 8))::bit(32)::bigint % v_check_every) THEN
			SELECT g.id INTO v_gold FROM review_gold g
			WHERE g.retired_at IS NULL
				AND NOT EXISTS (SELECT 1 FROM review_check c WHERE c.gold_id = g.id AND c.reviewer_id = p_user)
				AND NOT EXISTS (SELECT 1 FROM review_gold_answer a WHERE a.gold_id = g.id
					AND a.reviewer_id = p_user)
			ORDER BY md5(p_user || ':' || g.id::text) COLLATE "C", g.id LIMIT 1;
			IF v_gold IS NOT NULL THEN
				RETURN QUERY INSERT INTO review_check AS c (public_id, reviewer_id, gold_id, round, lease_token,
					lease_minutes, leased_at, lease_expires_at, claim_index)
				SELECT p_public, p_user, v_gold, t.round, p_token, d.lease_minutes, p_now,
					p_now + make_interval(mins => d.lease_minutes), v_claim
				FROM review_task t JOIN qa_item i ON i.id = t.item_id JOIN dataset d ON d.id = i.dataset_id
				WHERE t.id = v_id
				RETURNING NULL::integer, NULL::integer, c.round, c.lease_token, c.leased_at,
					c.lease_expires_at, c.public_id, c.id;
				INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
				SELECT p_user, 'review_check.lease', 'review_check', c.id::text,
					jsonb_build_object('goldId', c.gold_id, 'claim', c.claim_index)
				FROM review_check c WHERE c.public_id = p_public;
				RETURN;
			END IF;
		END IF;
	END IF;

	-- The lease and its audit event in one statement.
	RETURN QUERY WITH leased AS (
		UPDATE review_task t SET state = 'leased', leased_by = p_user, lease_token = p_token,
			public_id = p_public, leased_at = p_now,
			lease_expires_at = p_now + make_interval(mins => (
				SELECT d.lease_minutes FROM qa_item i JOIN dataset d ON d.id = i.dataset_id
				WHERE i.id = t.item_id))
		WHERE t.id = v_id
		RETURNING t.id, t.item_id, t.round, t.lease_token, t.leased_at, t.lease_expires_at,
			t.public_id
	), audited AS (
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		SELECT p_user, 'review_task.lease', 'review_task', l.id::text,
			jsonb_build_object('round', l.round, 'itemId', l.item_id, 'expiresAt',
				to_char(l.lease_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
		FROM leased l
	)
	SELECT l.id, l.item_id, l.round, l.lease_token, l.leased_at, l.lease_expires_at, l.public_id,
		NULL::integer
	FROM leased l;
END $$;

-- Records a review of a leased task. Outcome 'saved' with the new review; 'duplicate' with the
-- review a retried submission (same key, same reviewer and task) saved already; otherwise
-- 'conflict' (the key was used for another review), 'not_found', 'already_submitted' or
-- 'not_leased' (the caller holds no lease on the task with this token), and nothing is written.
-- A primary review of an item in the secondary sample opens its secondary task, never offered to
-- the primary reviewer (awaiting the item's passage when the dataset waits for it). A primary
-- review counts in the reviewer's reviewer_tally row. The review records whether the item had no
-- imported passage (without_passage): the server decides, not the form.
-- Called by reviews.ts `submitReview` and review_submit_and_next.
CREATE OR REPLACE FUNCTION review_submit(
	p_user text, p_task integer, p_key text, p_verdict verdict, p_relevance integer,
	p_feedback_category feedback_category, p_feedback text,
	p_dispute_category dispute_category, p_dispute_reason text,
	p_time_on_task integer, p_now timestamptz
) RETURNS TABLE (outcome text, review jsonb)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	t review_task;
	v_item record;
	v_counts boolean;
	saved review;
BEGIN
	-- Lock the task first: concurrent retries of one submission queue up here.
	SELECT * INTO t FROM review_task WHERE id = p_task FOR UPDATE;
	SELECT * INTO saved FROM review r WHERE r.idempotency_key = p_key;
	IF FOUND THEN
		IF saved.reviewer_id <> p_user OR saved.task_id <> p_task THEN
			RETURN QUERY SELECT 'conflict'::text, NULL::jsonb;
		ELSE
			RETURN QUERY SELECT 'duplicate'::text, review_json(saved);
		END IF;
		RETURN;
	END IF;
	IF t.id IS NULL THEN
		RETURN QUERY SELECT 'not_found'::text, NULL::jsonb;
		RETURN;
	END IF;
	IF t.state = 'done' AND t.done_by = p_user THEN
		RETURN QUERY SELECT 'already_submitted'::text, NULL::jsonb;
		RETURN;
	END IF;
	IF t.state <> 'leased' OR t.leased_by IS DISTINCT FROM p_user
		OR t.lease_token IS DISTINCT FROM p_key THEN
		RETURN QUERY SELECT 'not_leased'::text, NULL::jsonb;
		RETURN;
	END IF;

	-- Lock the item (its outcome is written below anyway): a concurrent change of its sample flag
	-- waits for this review, or this review sees the new flag.
	-- With it, whether the reviewer has a standing exclusion (judgement_counts is asked below only
	-- then: a SQL function called from here is planned on every call).
	SELECT i.current_version_id, i.dataset_id, i.in_secondary_sample AS sampled,
		NOT EXISTS (SELECT 1 FROM passage p WHERE p.paragraph_id = i.paragraph_id) AS no_passage,
		d.review_without_passage,
		EXISTS (SELECT 1 FROM exclusion e WHERE e.rater_id = p_user AND e.revoked_at IS NULL)
			AS excluded
	INTO v_item
	FROM qa_item i JOIN dataset d ON d.id = i.dataset_id WHERE i.id = t.item_id FOR NO KEY UPDATE OF i;
	-- The review, the task marked done and (a primary review) the reviewer's tally, in one statement.
	WITH r AS (
		INSERT INTO review (task_id, item_id, item_version_id, round, reviewer_id, verdict, relevance,
			feedback, time_on_task_ms, idempotency_key, submitted_at, without_passage)
		VALUES (t.id, t.item_id, v_item.current_version_id, t.round, p_user, p_verdict, p_relevance,
			p_feedback, p_time_on_task, p_key, p_now, v_item.no_passage)
		RETURNING *
	), done AS (
		UPDATE review_task SET state = 'done', done_by = p_user, done_at = p_now, lease_token = NULL
		WHERE id = t.id
	), tally AS (
		INSERT INTO reviewer_tally AS m (user_id, dataset_id, reviewed, sampled)
		SELECT p_user, v_item.dataset_id, 1, v_item.sampled::int WHERE t.round = 'primary'
		ON CONFLICT (user_id, dataset_id) DO UPDATE
		SET reviewed = m.reviewed + 1, sampled = m.sampled + excluded.sampled
	)
	SELECT * INTO saved FROM r;
	-- Whether the review counts.
	v_counts := NOT v_item.excluded OR judgement_counts(p_user, NULL, p_now);
	IF t.round = 'primary' AND v_item.sampled AND v_counts THEN
		-- The item's secondary task, never for this reviewer: a new one, a cancelled one revived, or
		-- one already waiting (its primary was reopened) now kept from this reviewer.
		INSERT INTO review_task (item_id, round, excluded_user_id, sort_key, awaits_passage)
		VALUES (t.item_id, 'secondary', p_user, t.sort_key,
			v_item.no_passage AND NOT v_item.review_without_passage)
		ON CONFLICT (item_id, round) WHERE retired_at IS NULL DO UPDATE SET excluded_user_id = p_user,
			state = 'pending'
		WHERE review_task.state IN ('cancelled', 'pending');
	END IF;
	IF p_feedback IS NOT NULL OR p_dispute_reason IS NOT NULL THEN
		PERFORM review_record_notes(p_user, saved.id, p_feedback_category, p_feedback,
			p_dispute_category, p_dispute_reason);
	END IF;
	IF v_counts THEN
		PERFORM item_resolve_outcome(t.item_id);
	ELSE
		-- Submitted under an exclusion (leased before it was made): the review is kept but does not
		-- count, and the item goes back into the queue for another reviewer.
		PERFORM review_task_reopen(t.id, NULL, p_now);
	END IF;
	INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
	VALUES (p_user, 'review.submit', 'review', saved.id::text, jsonb_build_object('itemId',
		saved.item_id, 'round', saved.round, 'verdict', saved.verdict, 'relevance', saved.relevance,
		'withoutPassage', saved.without_passage));
	RETURN QUERY SELECT 'saved'::text, review_json(saved);
END $$;

-- "Submit and next" of the review screen: review_submit, then (when the review is saved or was
-- saved before) review_claim_next (hidden gold checks with p_checks). Always one row; the lease columns are null when nothing is left
-- or the submission was refused. Called by reviews.ts `submitAndNext` (one prepared statement).
CREATE OR REPLACE FUNCTION review_submit_and_next(
	p_user text, p_task integer, p_key text, p_verdict verdict, p_relevance integer,
	p_feedback_category feedback_category, p_feedback text,
	p_dispute_category dispute_category, p_dispute_reason text,
	p_time_on_task integer, p_now timestamptz, p_next_token text, p_next_public text,
	p_checks boolean
) RETURNS TABLE (outcome text, review jsonb, task_id integer, item_id integer, round review_round,
	lease_token text, leased_at timestamptz, lease_expires_at timestamptz, public_id text,
	check_id integer)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	s record;
	l record;
BEGIN
	SELECT * INTO s FROM review_submit(p_user, p_task, p_key, p_verdict, p_relevance,
		p_feedback_category, p_feedback, p_dispute_category, p_dispute_reason, p_time_on_task, p_now);
	IF s.outcome IN ('saved', 'duplicate') THEN
		SELECT * INTO l FROM review_claim_next(p_user, p_now, p_next_token, p_next_public, p_checks);
		RETURN QUERY SELECT s.outcome, s.review, l.task_id, l.item_id, l.round, l.lease_token,
			l.leased_at, l.lease_expires_at, l.public_id, l.check_id;
	ELSE
		RETURN QUERY SELECT s.outcome, s.review, NULL::integer, NULL::integer, NULL::review_round,
			NULL::text, NULL::timestamptz, NULL::timestamptz, NULL::text, NULL::integer;
	END IF;
END $$;

-- Records a reviewer's answer to a hidden gold check they hold (review_check), then (when saved or
-- saved before) leases their next work as review_claim_next does (checks included): the same row
-- as review_submit_and_next, with no review. Outcome 'saved' or 'duplicate' (the same key, the
-- check answered already), else 'not_leased' (not this reviewer's check, or released or skipped)
-- and nothing is written. `matched` counts the labels (verdict, relevance) equal to the gold's.
-- Accepted after the lease ran out, as a live review is while nobody else took its item (nobody
-- else can take a check). The feedback note and dispute reason are kept on the check for the
-- organisers (a dispute of a gold pair is worth reading). Called by review/checks.ts.
CREATE OR REPLACE FUNCTION review_check_submit_and_next(
	p_user text, p_check integer, p_key text, p_verdict verdict, p_relevance integer,
	p_feedback_category feedback_category, p_feedback text, p_dispute_category dispute_category,
	p_dispute_reason text, p_time_on_task integer, p_now timestamptz, p_next_token text,
	p_next_public text
) RETURNS TABLE (outcome text, review jsonb, task_id integer, item_id integer, round review_round,
	lease_token text, leased_at timestamptz, lease_expires_at timestamptz, public_id text,
	check_id integer)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	c review_check;
	v_outcome text;
	l record;
BEGIN
	SELECT * INTO c FROM review_check WHERE id = p_check AND reviewer_id = p_user FOR UPDATE;
	IF c.id IS NULL OR c.lease_token IS DISTINCT FROM p_key OR c.state NOT IN ('leased', 'done') THEN
		v_outcome := 'not_leased';
	ELSIF c.state = 'done' THEN
		v_outcome := 'duplicate';
	ELSE
		UPDATE review_check SET state = 'done', verdict = p_verdict, relevance = p_relevance,
			matched = (SELECT (g.verdict = p_verdict)::int + (g.relevance = p_relevance)::int
				FROM review_gold g WHERE g.id = c.gold_id),
			feedback_category = CASE WHEN p_feedback IS NOT NULL THEN p_feedback_category END,
			feedback = p_feedback,
			dispute_category = CASE WHEN p_dispute_reason IS NOT NULL THEN p_dispute_category END,
			dispute_reason = p_dispute_reason, time_on_task_ms = p_time_on_task,
			submitted_at = p_now
		WHERE id = c.id;
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		VALUES (p_user, 'review_check.submit', 'review_check', c.id::text,
			jsonb_build_object('goldId', c.gold_id, 'verdict', p_verdict, 'relevance', p_relevance));
		v_outcome := 'saved';
	END IF;
	IF v_outcome = 'not_leased' THEN
		RETURN QUERY SELECT v_outcome, NULL::jsonb, NULL::integer, NULL::integer, NULL::review_round,
			NULL::text, NULL::timestamptz, NULL::timestamptz, NULL::text, NULL::integer;
		RETURN;
	END IF;
	SELECT * INTO l FROM review_claim_next(p_user, p_now, p_next_token, p_next_public, true);
	RETURN QUERY SELECT v_outcome, NULL::jsonb, l.task_id, l.item_id, l.round, l.lease_token,
		l.leased_at, l.lease_expires_at, l.public_id, l.check_id;
END $$;

-- Recomputes a dataset's reviewer_tally rows from its reviews (each reviewer's first-revision
-- primary reviews per dataset, and how many of those items are in the secondary sample), for
-- reviews written outside review_submit: fixtures and benches call it. The table lock waits for
-- submissions in flight and holds new ones until the transaction ends, so no review is counted
-- twice or missed.
CREATE OR REPLACE FUNCTION reviewer_tally_refresh(p_dataset integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	LOCK TABLE reviewer_tally IN SHARE ROW EXCLUSIVE MODE;
	DELETE FROM reviewer_tally WHERE dataset_id = p_dataset;
	INSERT INTO reviewer_tally (user_id, dataset_id, reviewed, sampled)
	SELECT r.reviewer_id, i.dataset_id, count(*)::int,
		count(*) FILTER (WHERE i.in_secondary_sample)::int
	FROM review r JOIN qa_item i ON i.id = r.item_id
	WHERE i.dataset_id = p_dataset AND r.round = 'primary' AND r.revision = 1
	GROUP BY r.reviewer_id, i.dataset_id;
END $$;

-- Retires a done task whose review no longer counts (an exclusion of its reviewer) and puts a fresh
-- task for the same item and round into the queue in its place, at the same queue position; the
-- fresh task goes to nobody who held or did another task of the item (review_task_open_to). The
-- item's outcome is recomputed from its current tasks. Items withdrawn or adjudicated keep their
-- tasks (an adjudication decides them). Returns the fresh task's id, or null when nothing changed.
-- Audited as review_task.reopen (actor p_actor: the organiser, or null when a submission under an
-- exclusion reopens its own task). Called by review_submit and review_exclusion_apply.
CREATE OR REPLACE FUNCTION review_task_reopen(p_task integer, p_actor text, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	t review_task;
	v_new integer;
BEGIN
	SELECT * INTO t FROM review_task WHERE id = p_task AND retired_at IS NULL AND state = 'done'
	FOR UPDATE;
	IF NOT FOUND OR EXISTS (SELECT 1 FROM qa_item i WHERE i.id = t.item_id AND i.status = 'withdrawn')
		OR EXISTS (SELECT 1 FROM adjudication a WHERE a.item_id = t.item_id) THEN
		RETURN NULL;
	END IF;
	UPDATE review_task SET retired_at = p_now WHERE id = t.id;
	INSERT INTO review_task (item_id, round, sort_key, awaits_passage, reopened)
	SELECT t.item_id, t.round, t.sort_key, NOT d.review_without_passage AND NOT EXISTS (
		SELECT 1 FROM passage ap WHERE ap.paragraph_id = i.paragraph_id), true
	FROM qa_item i JOIN dataset d ON d.id = i.dataset_id WHERE i.id = t.item_id
	RETURNING id INTO v_new;
	PERFORM item_resolve_outcome(t.item_id);
	INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
	VALUES (p_actor, 'review_task.reopen', 'review_task', t.id::text, jsonb_build_object(
		'itemId', t.item_id, 'round', t.round, 'reviewerId', t.done_by, 'replacedBy', v_new));
	RETURN v_new;
END $$;

-- Brings a reviewer's tasks in line with their exclusions (of every study) after one is made or
-- revoked: each current done task whose review (latest revision, by its submission time) no longer
-- counts is reopened (review_task_reopen); each retired task whose review counts again takes its
-- place back while the fresh task that replaced it is still waiting unclaimed (the fresh task is
-- cancelled; one already leased or reviewed stands, and the item keeps that review). Tasks are
-- taken in id order. Returns how many tasks changed. Called by domain/exclusions.
CREATE OR REPLACE FUNCTION review_exclusion_apply(p_rater text, p_actor text, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	v_task record;
	v_changed integer := 0;
	v_replacement integer;
BEGIN
	FOR v_task IN
		SELECT t.id FROM review_task t
		WHERE t.done_by = p_rater AND t.state = 'done' AND t.retired_at IS NULL
			AND NOT judgement_counts(p_rater, NULL, (SELECT r.submitted_at FROM review r
				WHERE r.task_id = t.id ORDER BY r.revision DESC LIMIT 1))
		ORDER BY t.id
	LOOP
		IF review_task_reopen(v_task.id, p_actor, p_now) IS NOT NULL THEN
			v_changed := v_changed + 1;
		END IF;
	END LOOP;
	FOR v_task IN
		SELECT t.id, t.item_id, t.round FROM review_task t
		WHERE t.done_by = p_rater AND t.state = 'done' AND t.retired_at IS NOT NULL
			AND judgement_counts(p_rater, NULL, (SELECT r.submitted_at FROM review r
				WHERE r.task_id = t.id ORDER BY r.revision DESC LIMIT 1))
		ORDER BY t.id
	LOOP
		UPDATE review_task c SET state = 'cancelled', retired_at = p_now
		WHERE c.item_id = v_task.item_id AND c.round = v_task.round AND c.retired_at IS NULL
			AND c.reopened AND c.state = 'pending'
		RETURNING c.id INTO v_replacement;
		IF v_replacement IS NOT NULL THEN
			UPDATE review_task SET retired_at = NULL WHERE id = v_task.id;
			PERFORM item_resolve_outcome(v_task.item_id);
			INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
			VALUES (p_actor, 'review_task.restore', 'review_task', v_task.id::text, jsonb_build_object(
				'itemId', v_task.item_id, 'round', v_task.round, 'reviewerId', p_rater,
				'cancelled', v_replacement));
			v_changed := v_changed + 1;
		END IF;
	END LOOP;
	RETURN v_changed;
END $$;
