DROP INDEX "review_task_claimable";--> statement-breakpoint
ALTER TABLE "dataset" ADD COLUMN "review_without_passage" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "review" ADD COLUMN "without_passage" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "review_task" ADD COLUMN "awaits_passage" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "review_task_awaiting_passage" ON "review_task" USING btree ("round") WHERE "review_task"."state" = 'pending' and "review_task"."awaits_passage";--> statement-breakpoint
CREATE INDEX "review_task_claimable" ON "review_task" USING btree ("round","sort_key","id") WHERE "review_task"."state" = 'pending' and not "review_task"."awaits_passage";