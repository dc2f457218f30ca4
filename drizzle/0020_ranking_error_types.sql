CREATE TYPE "public"."error_type" AS ENUM('intrinsic_hallucination', 'extrinsic_hallucination', 'omission', 'other');--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD COLUMN "error_types" "error_type"[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD CONSTRAINT "error_types_need_fault" CHECK ("ranking_entry"."tag" <> 'good' or cardinality("ranking_entry"."error_types") = 0);
-- The ranking functions this migration changed live in src/lib/server/db/functions/ranking.sql.
