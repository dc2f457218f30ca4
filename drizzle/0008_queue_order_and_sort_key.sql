CREATE TYPE "public"."queue_order" AS ENUM('seeded', 'import');--> statement-breakpoint
DROP INDEX "review_task_claimable";--> statement-breakpoint
ALTER TABLE "dataset" ADD COLUMN "queue_order" "queue_order" DEFAULT 'seeded' NOT NULL;--> statement-breakpoint
ALTER TABLE "review_task" ADD COLUMN "sort_key" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "review_task_claimable" ON "review_task" USING btree ("round","sort_key","id") WHERE "review_task"."state" = 'pending';