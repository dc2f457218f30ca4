CREATE TYPE "public"."pairing" AS ENUM('all', 'balanced');--> statement-breakpoint
CREATE TYPE "public"."preference_outcome" AS ENUM('left', 'right', 'tie_good', 'tie_bad');--> statement-breakpoint
CREATE TYPE "public"."preference_strength" AS ENUM('slightly', 'clearly');--> statement-breakpoint
ALTER TYPE "public"."study_design" ADD VALUE 'pairwise';--> statement-breakpoint
CREATE TABLE "study_physician_side" (
	"study_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"source" text NOT NULL,
	"lead" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "study_physician_side_study_id_physician_id_source_pk" PRIMARY KEY("study_id","physician_id","source")
);
--> statement-breakpoint
CREATE TABLE "pairwise_aspect_preference" (
	"judgement_id" integer NOT NULL,
	"aspect" text NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "pairwise_aspect_preference_judgement_id_aspect_pk" PRIMARY KEY("judgement_id","aspect"),
	CONSTRAINT "aspect_outcome_value" CHECK ("pairwise_aspect_preference"."outcome" in ('left', 'right', 'tie'))
);
--> statement-breakpoint
CREATE TABLE "pairwise_judgement" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pairwise_judgement_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"rater_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"left_candidate_id" integer NOT NULL,
	"right_candidate_id" integer NOT NULL,
	"outcome" "preference_outcome" NOT NULL,
	"strength" "preference_strength",
	"reason" text,
	"time_on_task_ms" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pairwise_judgement_assignmentId_unique" UNIQUE("assignment_id"),
	CONSTRAINT "pairwise_judgement_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "strength_side" CHECK ("pairwise_judgement"."strength" is null or "pairwise_judgement"."outcome" in ('left', 'right')),
	CONSTRAINT "two_sides" CHECK ("pairwise_judgement"."left_candidate_id" <> "pairwise_judgement"."right_candidate_id")
);
--> statement-breakpoint
CREATE TABLE "pairwise_study" (
	"study_id" integer PRIMARY KEY NOT NULL,
	"pairing" "pairing" DEFAULT 'all' NOT NULL,
	"pairs_per_question" integer,
	"seed" text NOT NULL,
	"rubric_id" integer,
	"rubric_version_id" integer,
	CONSTRAINT "pairs_given" CHECK (("pairwise_study"."pairing" = 'all') = ("pairwise_study"."pairs_per_question" is null) and coalesce("pairwise_study"."pairs_per_question", 1) > 0)
);
--> statement-breakpoint
ALTER TABLE "study_question" DROP CONSTRAINT "study_question_studyId_itemId_unique";--> statement-breakpoint
ALTER TABLE "study_question" DROP CONSTRAINT "study_question_studyId_setQuestionId_unique";--> statement-breakpoint
ALTER TABLE "study_question" ADD COLUMN "unit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "study_physician_side" ADD CONSTRAINT "study_physician_side_physician_fk" FOREIGN KEY ("study_id","physician_id") REFERENCES "public"."study_physician"("study_id","physician_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_aspect_preference" ADD CONSTRAINT "pairwise_aspect_preference_judgement_id_pairwise_judgement_id_fk" FOREIGN KEY ("judgement_id") REFERENCES "public"."pairwise_judgement"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_judgement" ADD CONSTRAINT "pairwise_judgement_assignment_id_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_judgement" ADD CONSTRAINT "pairwise_judgement_rater_id_user_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_judgement" ADD CONSTRAINT "pairwise_judgement_left_candidate_id_candidate_id_fk" FOREIGN KEY ("left_candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_judgement" ADD CONSTRAINT "pairwise_judgement_right_candidate_id_candidate_id_fk" FOREIGN KEY ("right_candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_study" ADD CONSTRAINT "pairwise_study_study_id_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_study" ADD CONSTRAINT "pairwise_study_rubric_id_rubric_id_fk" FOREIGN KEY ("rubric_id") REFERENCES "public"."rubric"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairwise_study" ADD CONSTRAINT "pairwise_study_rubric_version_id_rubric_version_id_fk" FOREIGN KEY ("rubric_version_id") REFERENCES "public"."rubric_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pairwise_judgement_left_candidate_id_index" ON "pairwise_judgement" USING btree ("left_candidate_id");--> statement-breakpoint
CREATE INDEX "pairwise_judgement_right_candidate_id_index" ON "pairwise_judgement" USING btree ("right_candidate_id");--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_studyId_itemId_unit_unique" UNIQUE("study_id","item_id","unit");--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_studyId_setQuestionId_unit_unique" UNIQUE("study_id","set_question_id","unit");