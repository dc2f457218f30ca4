ALTER TABLE "review_task" DROP CONSTRAINT "review_task_itemId_round_unique";--> statement-breakpoint
ALTER TABLE "review_task" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "review_task" ADD COLUMN "reopened" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "review_task_current" ON "review_task" USING btree ("item_id","round") WHERE "review_task"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "review_task_item" ON "review_task" USING btree ("item_id");