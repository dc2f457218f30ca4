ALTER TABLE "qa_item" ALTER COLUMN "status" SET DATA TYPE text;--> statement-breakpoint
-- Hand-written: map the old mixed states to workflow states while the column is text (the verdict stays in final_verdict).
UPDATE "qa_item" SET "status" = CASE "status" WHEN 'unreviewed' THEN 'awaiting_primary' WHEN 'in_review' THEN 'awaiting_primary' WHEN 'disagreement' THEN 'awaiting_adjudication' WHEN 'verified' THEN 'done' ELSE "status" END;--> statement-breakpoint
ALTER TABLE "qa_item" ALTER COLUMN "status" SET DEFAULT 'awaiting_primary'::text;--> statement-breakpoint
DROP TYPE "public"."item_status";--> statement-breakpoint
CREATE TYPE "public"."item_status" AS ENUM('awaiting_primary', 'awaiting_secondary', 'awaiting_adjudication', 'done', 'withdrawn');--> statement-breakpoint
ALTER TABLE "qa_item" ALTER COLUMN "status" SET DEFAULT 'awaiting_primary'::"public"."item_status";--> statement-breakpoint
ALTER TABLE "qa_item" ALTER COLUMN "status" SET DATA TYPE "public"."item_status" USING "status"::"public"."item_status";--> statement-breakpoint
ALTER TABLE "snapshot_item" ADD COLUMN "provenance" "provenance";--> statement-breakpoint
CREATE INDEX "dispute_open" ON "dispute" USING btree ("item_id") WHERE "dispute"."status" in ('open', 'under_review');--> statement-breakpoint
CREATE INDEX "feedback_note_unresolved" ON "feedback_note" USING btree ("item_id") WHERE "feedback_note"."resolved_at" is null;