-- The ranking screen's database side: physicians' seeded question orders for the claim. The
-- ranking functions this migration created live in src/lib/server/db/functions/ranking.sql.

-- Questions physicians already have a seed for: their remaining questions in seeded order.
INSERT INTO "study_physician_question" ("study_id", "physician_id", "position", "study_question_id")
SELECT sp."study_id", sp."physician_id",
	row_number() OVER (PARTITION BY sp."study_id", sp."physician_id"
		ORDER BY md5(sp."order_seed" || ':' || q."id"::text) COLLATE "C", q."id"),
	q."id"
FROM "study_physician" sp
JOIN "study_question" q ON q."study_id" = sp."study_id"
WHERE NOT EXISTS (
	SELECT 1 FROM "assignment" a WHERE a."study_question_id" = q."id" AND a."physician_id" = sp."physician_id"
);
--> statement-breakpoint
UPDATE "study_physician" sp SET "queued_at" = now(), "presented" = coalesce((
	SELECT max(a."presentation_position") FROM "assignment" a
	JOIN "study_question" q ON q."id" = a."study_question_id"
	WHERE q."study_id" = sp."study_id" AND a."physician_id" = sp."physician_id"), 0)
WHERE "queued_at" IS NULL;
