-- The review and sampling functions this migration created or changed live in
-- src/lib/server/db/functions/review.sql and verification.sql.

-- The tallies of the reviews already in.
INSERT INTO reviewer_tally (user_id, dataset_id, reviewed, sampled)
SELECT r.reviewer_id, i.dataset_id, count(*)::int,
	count(*) FILTER (WHERE i.in_secondary_sample)::int
FROM review r JOIN qa_item i ON i.id = r.item_id
WHERE r.round = 'primary' AND r.revision = 1
GROUP BY r.reviewer_id, i.dataset_id;
