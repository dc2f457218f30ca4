ALTER TABLE "rater_hold" ALTER COLUMN "study_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "review_check" ADD COLUMN "feedback_category" "feedback_category";--> statement-breakpoint
ALTER TABLE "review_check" ADD COLUMN "dispute_category" "dispute_category";--> statement-breakpoint
ALTER TABLE "review_check" ADD COLUMN "revisions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rater_hold_standing_review" ON "rater_hold" USING btree ("rater_id") WHERE "rater_hold"."study_id" is null and "rater_hold"."lifted_at" is null;--> statement-breakpoint
-- A reviewer's history names each review by the public id of its task (never the item's or the
-- review's number); tasks done before public ids were drawn get one now, from the alphabet of the
-- application's ids (src/lib/server/ids.ts).
UPDATE "review_task" SET "public_id" = (SELECT string_agg(substr('abcdefghijkmnpqrstuvwxyz23456789',
	1 + floor(random() * 32)::int, 1), '') FROM generate_series(1, 24 + 0 * "review_task"."id"))
WHERE "public_id" IS NULL AND EXISTS (SELECT 1 FROM "review" r WHERE r."task_id" = "review_task"."id");
