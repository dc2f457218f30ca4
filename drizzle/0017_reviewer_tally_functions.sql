-- Each reviewer's tally of first-revision primary reviews per dataset (reviewed) and of those whose
-- item is in the secondary sample now (sampled), so that claiming the next item reads one row
-- instead of aggregating the reviewer's whole history. review_submit counts each primary review;
-- qa_item_mark_sampled moves the sampled counts with every change of an item's sample flag.

-- Recomputes a dataset's tallies from its reviews (for reviews written outside review_submit:
-- backfills, fixtures, benches). The table lock waits for submissions in flight and holds new ones
-- until the transaction ends, so no review is counted twice or missed.
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
--> statement-breakpoint

-- Puts items into (p_sampled true) or out of the secondary sample and moves the tallies of their
-- primary reviewers to match. Returns how many items changed. The tallies are moved in a second
-- statement, after the items are locked: a review submitted meanwhile either committed before
-- (and is counted here) or waits and counts itself with the new flag.
CREATE OR REPLACE FUNCTION qa_item_mark_sampled(p_items integer[], p_sampled boolean)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	v_changed integer[];
BEGIN
	WITH changed AS (
		UPDATE qa_item SET in_secondary_sample = p_sampled, updated_at = now()
		WHERE id = ANY (p_items) AND in_secondary_sample <> p_sampled
		RETURNING id
	)
	SELECT coalesce(array_agg(id), '{}') INTO v_changed FROM changed;
	IF cardinality(v_changed) = 0 THEN
		RETURN 0;
	END IF;
	UPDATE reviewer_tally m
	SET sampled = m.sampled + CASE WHEN p_sampled THEN d.n ELSE -d.n END
	FROM (
		SELECT r.reviewer_id, i.dataset_id, count(*)::int AS n
		FROM review r JOIN qa_item i ON i.id = r.item_id
		WHERE r.item_id = ANY (v_changed) AND r.round = 'primary' AND r.revision = 1
		GROUP BY r.reviewer_id, i.dataset_id
	) d
	WHERE m.user_id = d.reviewer_id AND m.dataset_id = d.dataset_id;
	RETURN cardinality(v_changed);
END $$;
--> statement-breakpoint

-- The tallies of the reviews already in.
INSERT INTO reviewer_tally (user_id, dataset_id, reviewed, sampled)
SELECT r.reviewer_id, i.dataset_id, count(*)::int,
	count(*) FILTER (WHERE i.in_secondary_sample)::int
FROM review r JOIN qa_item i ON i.id = r.item_id
WHERE r.round = 'primary' AND r.revision = 1
GROUP BY r.reviewer_id, i.dataset_id;
--> statement-breakpoint

-- Leases the next item to a reviewer (FOR UPDATE SKIP LOCKED: two reviewers never hold the same
-- task). The reviewer's unexpired lease if they hold one; else an expired lease of someone else
-- (secondary round first), then fresh secondary work, then fresh primary work in queue order
-- (sort key, then id) from inside or outside the secondary sample so that the reviewer's checked
-- share stays at the dataset's share (sampled + 1/2 < share x (reviewed + 1) prefers the sample,
-- both read from the reviewer's reviewer_tally row: constant time whatever their history),
-- falling back to whatever is left. A reviewer's own skips and the secondary round of items they
-- reviewed themselves are never offered to them. No row when nothing is left.
CREATE OR REPLACE FUNCTION review_claim_next(p_user text, p_now timestamptz, p_token text)
RETURNS TABLE (task_id integer, item_id integer, round review_round, lease_token text,
	leased_at timestamptz, lease_expires_at timestamptz)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	v_id integer;
	v_sampled integer[];
BEGIN
	RETURN QUERY SELECT t.id, t.item_id, t.round, t.lease_token, t.leased_at, t.lease_expires_at
	FROM review_task t
	WHERE t.state = 'leased' AND t.leased_by = p_user AND t.lease_expires_at > p_now
	LIMIT 1;
	IF FOUND THEN
		RETURN;
	END IF;

	SELECT t.id INTO v_id FROM review_task t
	WHERE t.state = 'leased' AND t.lease_expires_at <= p_now AND t.round = 'secondary'
		AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
		AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
	ORDER BY t.lease_expires_at LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	IF v_id IS NULL THEN
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'leased' AND t.lease_expires_at <= p_now AND t.round = 'primary'
			AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.lease_expires_at LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'secondary'
			AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		SELECT coalesce(array_agg(d.id), '{}') INTO v_sampled FROM dataset d
		LEFT JOIN reviewer_tally m ON m.dataset_id = d.id AND m.user_id = p_user
		WHERE coalesce(m.sampled, 0) + 0.5 < d.secondary_share * (coalesce(m.reviewed, 0) + 1);
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'primary'
			AND EXISTS (SELECT 1 FROM qa_item i WHERE i.id = t.item_id
				AND i.in_secondary_sample = (i.dataset_id = ANY (v_sampled)))
			AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		SELECT t.id INTO v_id FROM review_task t
		WHERE t.state = 'pending' AND t.round = 'primary'
			AND (t.excluded_user_id IS NULL OR t.excluded_user_id <> p_user)
			AND NOT EXISTS (SELECT 1 FROM task_skip s WHERE s.task_id = t.id AND s.user_id = p_user)
		ORDER BY t.sort_key, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;
	END IF;
	IF v_id IS NULL THEN
		RETURN;
	END IF;

	RETURN QUERY UPDATE review_task t SET state = 'leased', leased_by = p_user, lease_token = p_token,
		leased_at = p_now,
		lease_expires_at = p_now + make_interval(mins => (
			SELECT d.lease_minutes FROM qa_item i JOIN dataset d ON d.id = i.dataset_id
			WHERE i.id = t.item_id))
	WHERE t.id = v_id
	RETURNING t.id, t.item_id, t.round, t.lease_token, t.leased_at, t.lease_expires_at;
	INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
	SELECT p_user, 'review_task.lease', 'review_task', t.id::text,
		jsonb_build_object('round', t.round, 'itemId', t.item_id, 'expiresAt',
			to_char(t.lease_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
	FROM review_task t WHERE t.id = v_id;
END $$;
--> statement-breakpoint

-- Records a review of a leased task. Outcome 'saved' with the new review; 'duplicate' with the
-- review a retried submission (same key, same reviewer and task) saved already; otherwise
-- 'conflict' (the key was used for another review), 'not_found', 'already_submitted' or
-- 'not_leased' (the caller holds no lease on the task with this token), and nothing is written.
-- A primary review of an item in the secondary sample opens its secondary task, never offered to
-- the primary reviewer. A primary review counts in the reviewer's reviewer_tally row.
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
	SELECT i.current_version_id, i.dataset_id, i.in_secondary_sample AS sampled INTO v_item
	FROM qa_item i WHERE i.id = t.item_id FOR NO KEY UPDATE;
	INSERT INTO review (task_id, item_id, item_version_id, round, reviewer_id, verdict, relevance,
		feedback, time_on_task_ms, idempotency_key, submitted_at)
	VALUES (t.id, t.item_id, v_item.current_version_id, t.round, p_user, p_verdict, p_relevance,
		p_feedback, p_time_on_task, p_key, p_now)
	RETURNING * INTO saved;
	UPDATE review_task SET state = 'done', done_by = p_user, done_at = p_now, lease_token = NULL
	WHERE id = t.id;
	IF t.round = 'primary' THEN
		INSERT INTO reviewer_tally AS m (user_id, dataset_id, reviewed, sampled)
		VALUES (p_user, v_item.dataset_id, 1, v_item.sampled::int)
		ON CONFLICT (user_id, dataset_id) DO UPDATE
		SET reviewed = m.reviewed + 1, sampled = m.sampled + excluded.sampled;
	END IF;
	IF t.round = 'primary' AND v_item.sampled THEN
		INSERT INTO review_task (item_id, round, excluded_user_id, sort_key)
		VALUES (t.item_id, 'secondary', p_user, t.sort_key)
		ON CONFLICT (item_id, round) DO UPDATE SET excluded_user_id = p_user, state = 'pending'
		WHERE review_task.state = 'cancelled';
	END IF;
	IF p_feedback IS NOT NULL OR p_dispute_reason IS NOT NULL THEN
		PERFORM review_record_notes(p_user, saved.id, p_feedback_category, p_feedback,
			p_dispute_category, p_dispute_reason);
	END IF;
	PERFORM item_resolve_outcome(t.item_id);
	INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
	VALUES (p_user, 'review.submit', 'review', saved.id::text, jsonb_build_object('itemId',
		saved.item_id, 'round', saved.round, 'verdict', saved.verdict, 'relevance', saved.relevance));
	RETURN QUERY SELECT 'saved'::text, review_json(saved);
END $$;
