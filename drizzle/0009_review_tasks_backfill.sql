-- Every dataset gets the seed its queue order is computed from (the sample itself is drawn the
-- first time the verification settings are saved or items are imported).
UPDATE "dataset" SET "sample_seed" = substr(md5(random()::text || "id"::text), 1, 12) WHERE "sample_seed" IS NULL;--> statement-breakpoint
-- Items imported before imports created their own review tasks get their primary task here.
INSERT INTO "review_task" ("item_id", "round")
SELECT i."id", 'primary' FROM "qa_item" i
WHERE i."status" <> 'withdrawn'
	AND NOT EXISTS (SELECT 1 FROM "review_task" t WHERE t."item_id" = i."id" AND t."round" = 'primary')
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Seeded queue positions: the first 32 bits of md5('<dataset seed>:<item id>') as a signed integer.
UPDATE "review_task" t SET "sort_key" = ('x' || substr(md5(d."sample_seed" || ':' || i."id"::text), 1, 8))::bit(32)::int
FROM "qa_item" i JOIN "dataset" d ON d."id" = i."dataset_id"
WHERE i."id" = t."item_id";
