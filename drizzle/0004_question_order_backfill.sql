-- Assignments made before presentation positions were recorded: their position in each
-- physician's sequence is the order in which they were created (questions then came in
-- item-id order, for every physician alike; such physicians have no study_physician seed).
UPDATE "assignment" AS a
SET "presentation_position" = p.position
FROM (
	SELECT a2."id",
		row_number() OVER (PARTITION BY q."study_id", a2."physician_id" ORDER BY a2."created_at", a2."id") AS position
	FROM "assignment" a2
	JOIN "study_question" q ON q."id" = a2."study_question_id"
) AS p
WHERE p."id" = a."id" AND a."presentation_position" IS NULL;
