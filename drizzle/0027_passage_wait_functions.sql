-- Items without their imported source passage: a task awaits the passage while its dataset waits
-- for it (review_task.awaits_passage, out of the claim index), and a review records whether the
-- item had none (review.without_passage). The review functions this migration changed live in
-- src/lib/server/db/functions/review.sql.

-- Reviews already in: without a passage when none had been imported by the time they were
-- submitted.
UPDATE review r SET without_passage = true
FROM qa_item i
WHERE i.id = r.item_id AND NOT EXISTS (SELECT 1 FROM passage p
	WHERE p.paragraph_id = i.paragraph_id AND p.created_at <= r.submitted_at);
--> statement-breakpoint

-- Tasks of items without a passage wait for it (every dataset starts with the waiting default);
-- the flag is kept on tasks in every state, so a task that returns to the queue carries it.
UPDATE review_task t SET awaits_passage = true
FROM qa_item i
WHERE i.id = t.item_id
	AND NOT EXISTS (SELECT 1 FROM passage p WHERE p.paragraph_id = i.paragraph_id);
