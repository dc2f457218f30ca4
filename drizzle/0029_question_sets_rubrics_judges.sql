CREATE TYPE "public"."study_design" AS ENUM('ranking', 'rubric');--> statement-breakpoint
ALTER TYPE "public"."import_kind" ADD VALUE 'questions';--> statement-breakpoint
ALTER TYPE "public"."import_kind" ADD VALUE 'set_responses';--> statement-breakpoint
ALTER TYPE "public"."import_kind" ADD VALUE 'judge';--> statement-breakpoint
CREATE TABLE "judge" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "judge_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"name" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "judge_studyId_name_unique" UNIQUE("study_id","name")
);
--> statement-breakpoint
CREATE TABLE "judge_preference" (
	"judge_id" integer NOT NULL,
	"candidate_a_id" integer NOT NULL,
	"candidate_b_id" integer NOT NULL,
	"criterion" text NOT NULL,
	"preferred" text NOT NULL,
	"rationale" text,
	CONSTRAINT "judge_preference_judge_id_candidate_a_id_candidate_b_id_criterion_pk" PRIMARY KEY("judge_id","candidate_a_id","candidate_b_id","criterion"),
	CONSTRAINT "preferred_value" CHECK ("judge_preference"."preferred" in ('A', 'B', 'tie')),
	CONSTRAINT "two_answers" CHECK ("judge_preference"."candidate_a_id" <> "judge_preference"."candidate_b_id")
);
--> statement-breakpoint
CREATE TABLE "judge_score" (
	"judge_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"criterion" text NOT NULL,
	"score" double precision NOT NULL,
	"rationale" text,
	CONSTRAINT "judge_score_judge_id_candidate_id_criterion_pk" PRIMARY KEY("judge_id","candidate_id","criterion")
);
--> statement-breakpoint
CREATE TABLE "question_set" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "question_set_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_set_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "set_question" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "set_question_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"question_set_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"question" text NOT NULL,
	"context" text,
	"reference_answer" text,
	"documents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"record" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "set_question_questionSetId_externalId_unique" UNIQUE("question_set_id","external_id")
);
--> statement-breakpoint
CREATE TABLE "set_response" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "set_response_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"set_question_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"text" text NOT NULL,
	"record" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "set_response_setQuestionId_modelId_unique" UNIQUE("set_question_id","model_id")
);
--> statement-breakpoint
CREATE TABLE "rubric" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rubric_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubric_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "rubric_judgement" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rubric_judgement_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"rater_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"layout" text NOT NULL,
	"time_on_task_ms" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubric_judgement_assignmentId_unique" UNIQUE("assignment_id"),
	CONSTRAINT "rubric_judgement_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "rubric_score" (
	"judgement_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"sub_aspect" text NOT NULL,
	"score" smallint NOT NULL,
	"rationale" text,
	"display_position" smallint NOT NULL,
	"side" text,
	CONSTRAINT "rubric_score_judgement_id_candidate_id_sub_aspect_pk" PRIMARY KEY("judgement_id","candidate_id","sub_aspect"),
	CONSTRAINT "side_value" CHECK ("rubric_score"."side" is null or "rubric_score"."side" in ('left', 'right'))
);
--> statement-breakpoint
CREATE TABLE "rubric_study" (
	"study_id" integer PRIMARY KEY NOT NULL,
	"rubric_id" integer NOT NULL,
	"rubric_version_id" integer
);
--> statement-breakpoint
CREATE TABLE "rubric_version" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rubric_version_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rubric_id" integer NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubric_version_rubricId_version_unique" UNIQUE("rubric_id","version"),
	CONSTRAINT "version_positive" CHECK ("rubric_version"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "study_question" ALTER COLUMN "item_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "study_question" ALTER COLUMN "item_version_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "candidate" ADD COLUMN "set_response_id" integer;--> statement-breakpoint
ALTER TABLE "ranking_study" ADD COLUMN "design" "study_design" DEFAULT 'ranking' NOT NULL;--> statement-breakpoint
ALTER TABLE "ranking_study" ADD COLUMN "question_set_id" integer;--> statement-breakpoint
ALTER TABLE "study_question" ADD COLUMN "set_question_id" integer;--> statement-breakpoint
ALTER TABLE "judge" ADD CONSTRAINT "judge_study_id_ranking_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."ranking_study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge" ADD CONSTRAINT "judge_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_preference" ADD CONSTRAINT "judge_preference_judge_id_judge_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."judge"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_preference" ADD CONSTRAINT "judge_preference_candidate_a_id_candidate_id_fk" FOREIGN KEY ("candidate_a_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_preference" ADD CONSTRAINT "judge_preference_candidate_b_id_candidate_id_fk" FOREIGN KEY ("candidate_b_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_score" ADD CONSTRAINT "judge_score_judge_id_judge_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."judge"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_score" ADD CONSTRAINT "judge_score_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set" ADD CONSTRAINT "question_set_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_question" ADD CONSTRAINT "set_question_question_set_id_question_set_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_set"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_question" ADD CONSTRAINT "set_question_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_response" ADD CONSTRAINT "set_response_set_question_id_set_question_id_fk" FOREIGN KEY ("set_question_id") REFERENCES "public"."set_question"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_response" ADD CONSTRAINT "set_response_model_id_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."model"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_response" ADD CONSTRAINT "set_response_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric" ADD CONSTRAINT "rubric_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_judgement" ADD CONSTRAINT "rubric_judgement_assignment_id_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_judgement" ADD CONSTRAINT "rubric_judgement_rater_id_user_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_score" ADD CONSTRAINT "rubric_score_judgement_id_rubric_judgement_id_fk" FOREIGN KEY ("judgement_id") REFERENCES "public"."rubric_judgement"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_score" ADD CONSTRAINT "rubric_score_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_study" ADD CONSTRAINT "rubric_study_study_id_ranking_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."ranking_study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_study" ADD CONSTRAINT "rubric_study_rubric_id_rubric_id_fk" FOREIGN KEY ("rubric_id") REFERENCES "public"."rubric"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_study" ADD CONSTRAINT "rubric_study_rubric_version_id_rubric_version_id_fk" FOREIGN KEY ("rubric_version_id") REFERENCES "public"."rubric_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_version" ADD CONSTRAINT "rubric_version_rubric_id_rubric_id_fk" FOREIGN KEY ("rubric_id") REFERENCES "public"."rubric"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_version" ADD CONSTRAINT "rubric_version_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "set_response_model_id_index" ON "set_response" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "rubric_score_candidate_id_index" ON "rubric_score" USING btree ("candidate_id");--> statement-breakpoint
ALTER TABLE "candidate" ADD CONSTRAINT "candidate_set_response_id_set_response_id_fk" FOREIGN KEY ("set_response_id") REFERENCES "public"."set_response"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_study" ADD CONSTRAINT "ranking_study_question_set_id_question_set_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_set"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_set_question_id_set_question_id_fk" FOREIGN KEY ("set_question_id") REFERENCES "public"."set_question"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_studyId_setQuestionId_unique" UNIQUE("study_id","set_question_id");--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "one_source" CHECK (("study_question"."item_version_id" is not null and "study_question"."item_id" is not null and "study_question"."set_question_id" is null) or ("study_question"."item_version_id" is null and "study_question"."item_id" is null and "study_question"."set_question_id" is not null));