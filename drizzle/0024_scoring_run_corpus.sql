CREATE TYPE "public"."scoring_corpus_kind" AS ENUM('snapshot', 'items');--> statement-breakpoint
CREATE TABLE "scoring_run_corpus" (
	"run_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	CONSTRAINT "scoring_run_corpus_run_id_item_version_id_pk" PRIMARY KEY("run_id","item_version_id")
);
--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "corpus_kind" "scoring_corpus_kind";--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "snapshot_id" integer;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "corpus_size" integer;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "corpus_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "corpus_digest" text;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD COLUMN "rerun_of" integer;--> statement-breakpoint
ALTER TABLE "scoring_run_corpus" ADD CONSTRAINT "scoring_run_corpus_run_id_scoring_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."scoring_run"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_run_corpus" ADD CONSTRAINT "scoring_run_corpus_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD CONSTRAINT "scoring_run_snapshot_id_snapshot_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."snapshot"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD CONSTRAINT "scoring_run_rerun_of_scoring_run_id_fk" FOREIGN KEY ("rerun_of") REFERENCES "public"."scoring_run"("id") ON DELETE no action ON UPDATE no action;