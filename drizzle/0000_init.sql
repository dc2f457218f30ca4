CREATE TYPE "public"."assignment_state" AS ENUM('leased', 'submitted', 'expired', 'released');--> statement-breakpoint
CREATE TYPE "public"."dispute_category" AS ENUM('factually_wrong', 'not_supported_by_source', 'ambiguous', 'outdated', 'other');--> statement-breakpoint
CREATE TYPE "public"."dispute_status" AS ENUM('open', 'under_review', 'upheld', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."feedback_category" AS ENUM('wording', 'ambiguous', 'outdated', 'answer_incomplete', 'other');--> statement-breakpoint
CREATE TYPE "public"."import_kind" AS ENUM('qa', 'passages', 'responses');--> statement-breakpoint
CREATE TYPE "public"."item_status" AS ENUM('unreviewed', 'in_review', 'awaiting_secondary', 'disagreement', 'verified', 'withdrawn');--> statement-breakpoint
CREATE TYPE "public"."job_state" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."provenance" AS ENUM('single', 'agreed', 'adjudicated');--> statement-breakpoint
CREATE TYPE "public"."qa_type" AS ENUM('true_false', 'multiple_choice', 'list', 'short_answer', 'short_inverse', 'multi_hop', 'multi_hop_inverse');--> statement-breakpoint
CREATE TYPE "public"."review_round" AS ENUM('primary', 'secondary');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('organiser', 'reviewer', 'physician', 'adjudicator');--> statement-breakpoint
CREATE TYPE "public"."scoring_mode" AS ENUM('official', 'corrected');--> statement-breakpoint
CREATE TYPE "public"."study_state" AS ENUM('draft', 'open', 'paused', 'closed');--> statement-breakpoint
CREATE TYPE "public"."tag" AS ENUM('good', 'okay', 'bad');--> statement-breakpoint
CREATE TYPE "public"."task_state" AS ENUM('pending', 'leased', 'done', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."verdict" AS ENUM('correct', 'incorrect', 'cannot_tell');--> statement-breakpoint
CREATE TABLE "invitation" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"roles" "role"[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" text,
	CONSTRAINT "invitation_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"pseudonym" text NOT NULL,
	"password_hash" text,
	"roles" "role"[] DEFAULT '{}'::role[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "user_email_unique" UNIQUE("email"),
	CONSTRAINT "user_pseudonym_unique" UNIQUE("pseudonym"),
	CONSTRAINT "user_email_lower" CHECK ("user"."email" = lower("user"."email"))
);
--> statement-breakpoint
CREATE TABLE "audit_event" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_id" text,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dataset_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"secondary_share" real DEFAULT 0.45 NOT NULL,
	"sample_seed" text,
	"sampled_at" timestamp with time zone,
	"lease_minutes" integer DEFAULT 30 NOT NULL,
	"disagree_on_verdict" boolean DEFAULT true NOT NULL,
	"relevance_gap" smallint DEFAULT 2 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "import" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" "import_kind" NOT NULL,
	"dataset_id" integer,
	"file_name" text NOT NULL,
	"created_by" text,
	"actor" text NOT NULL,
	"model_name" text,
	"created" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "model_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "passage" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "passage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"paragraph_id" text NOT NULL,
	"isbn" text,
	"page" integer,
	"text" text NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passage_paragraphId_unique" UNIQUE("paragraph_id")
);
--> statement-breakpoint
CREATE TABLE "qa_item" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qa_item_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dataset_id" integer NOT NULL,
	"item_key" text NOT NULL,
	"type" "qa_type" NOT NULL,
	"paragraph_id" text,
	"question" text NOT NULL,
	"current_version_id" integer,
	"current_version" integer DEFAULT 1 NOT NULL,
	"status" "item_status" DEFAULT 'unreviewed' NOT NULL,
	"in_secondary_sample" boolean DEFAULT false NOT NULL,
	"provenance" "provenance",
	"final_verdict" "verdict",
	"final_relevance" smallint,
	"first_import_id" integer,
	"last_import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_item_datasetId_itemKey_unique" UNIQUE("dataset_id","item_key")
);
--> statement-breakpoint
CREATE TABLE "qa_item_version" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qa_item_version_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"version" integer NOT NULL,
	"record" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"type" "qa_type" NOT NULL,
	"question" text NOT NULL,
	"answer" text,
	"answer_list" jsonb,
	"options" jsonb,
	"correct_answer" text,
	"reasoning" jsonb,
	"false_answer" text,
	"incorrect_explanation" text,
	"incorrect_step" integer,
	"incorrect_step_explanation" text,
	"source_isbn" text,
	"source_page" integer,
	"paragraph_id" text,
	"origin" text NOT NULL,
	"import_id" integer,
	"created_by" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_item_version_itemId_version_unique" UNIQUE("item_id","version"),
	CONSTRAINT "version_positive" CHECK ("qa_item_version"."version" > 0)
);
--> statement-breakpoint
CREATE TABLE "response" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "response_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"text" text NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "response_itemId_modelId_unique" UNIQUE("item_id","model_id")
);
--> statement-breakpoint
CREATE TABLE "adjudication" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adjudication_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"adjudicator_id" text NOT NULL,
	"verdict" "verdict" NOT NULL,
	"relevance" smallint NOT NULL,
	"reason" text NOT NULL,
	"review_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "adjudication_relevance_range" CHECK ("adjudication"."relevance" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "dispute" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dispute_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"review_id" integer,
	"raised_by" text NOT NULL,
	"category" "dispute_category" NOT NULL,
	"reason" text NOT NULL,
	"status" "dispute_status" DEFAULT 'open' NOT NULL,
	"owner_id" text,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "dispute_comment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dispute_comment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dispute_id" integer NOT NULL,
	"author_id" text NOT NULL,
	"body" text NOT NULL,
	"status_change" "dispute_status",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback_note" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "feedback_note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"review_id" integer,
	"author_id" text NOT NULL,
	"category" "feedback_category" NOT NULL,
	"body" text NOT NULL,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"round" "review_round" NOT NULL,
	"reviewer_id" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"supersedes_id" integer,
	"verdict" "verdict" NOT NULL,
	"relevance" smallint NOT NULL,
	"feedback" text,
	"time_on_task_ms" integer,
	"idempotency_key" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "review_taskId_revision_unique" UNIQUE("task_id","revision"),
	CONSTRAINT "relevance_range" CHECK ("review"."relevance" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "review_task" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_task_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"round" "review_round" NOT NULL,
	"state" "task_state" DEFAULT 'pending' NOT NULL,
	"excluded_user_id" text,
	"leased_by" text,
	"lease_token" text,
	"leased_at" timestamp with time zone,
	"lease_expires_at" timestamp with time zone,
	"done_by" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_task_itemId_round_unique" UNIQUE("item_id","round")
);
--> statement-breakpoint
CREATE TABLE "snapshot" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "snapshot_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dataset_id" integer NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"composition" jsonb NOT NULL,
	"item_count" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snapshot_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "snapshot_item" (
	"snapshot_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"final_relevance" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_skip" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_skip_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_question_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"public_id" text NOT NULL,
	"seed" text NOT NULL,
	"state" "assignment_state" DEFAULT 'leased' NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "assignment_publicId_unique" UNIQUE("public_id"),
	CONSTRAINT "assignment_studyQuestionId_physicianId_unique" UNIQUE("study_question_id","physician_id")
);
--> statement-breakpoint
CREATE TABLE "assignment_candidate" (
	"assignment_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"public_id" text NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "assignment_candidate_assignmentId_candidateId_unique" UNIQUE("assignment_id","candidate_id"),
	CONSTRAINT "assignment_candidate_assignmentId_publicId_unique" UNIQUE("assignment_id","public_id"),
	CONSTRAINT "assignment_candidate_assignmentId_position_unique" UNIQUE("assignment_id","position")
);
--> statement-breakpoint
CREATE TABLE "candidate" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "candidate_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_question_id" integer NOT NULL,
	"response_id" integer,
	"model_id" integer,
	"is_reference" boolean DEFAULT false NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ranking_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"time_on_task_ms" integer,
	"displayed_order" jsonb NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ranking_assignmentId_unique" UNIQUE("assignment_id"),
	CONSTRAINT "ranking_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "ranking_entry" (
	"ranking_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"rank" smallint NOT NULL,
	"tag" "tag" NOT NULL,
	"comment" text,
	"display_position" smallint NOT NULL,
	CONSTRAINT "ranking_entry_rankingId_candidateId_unique" UNIQUE("ranking_id","candidate_id"),
	CONSTRAINT "rank_positive" CHECK ("ranking_entry"."rank" >= 1)
);
--> statement-breakpoint
CREATE TABLE "ranking_study" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ranking_study_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"state" "study_state" DEFAULT 'draft' NOT NULL,
	"include_reference" boolean DEFAULT true NOT NULL,
	"raters_per_question" smallint DEFAULT 3 NOT NULL,
	"allow_ties" boolean DEFAULT false NOT NULL,
	"lease_minutes" integer DEFAULT 30 NOT NULL,
	"selection" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "ranking_study_name_unique" UNIQUE("name"),
	CONSTRAINT "raters_positive" CHECK ("ranking_study"."raters_per_question" >= 1)
);
--> statement-breakpoint
CREATE TABLE "study_model" (
	"study_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	CONSTRAINT "study_model_studyId_modelId_unique" UNIQUE("study_id","model_id")
);
--> statement-breakpoint
CREATE TABLE "study_question" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "study_question_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"item_version_id" integer NOT NULL,
	"open_slots" smallint NOT NULL,
	"completed" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "study_question_studyId_itemId_unique" UNIQUE("study_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "score" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "score_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" integer NOT NULL,
	"response_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"type" "qa_type" NOT NULL,
	"value" double precision NOT NULL,
	"metrics" jsonb NOT NULL,
	CONSTRAINT "score_runId_responseId_unique" UNIQUE("run_id","response_id")
);
--> statement-breakpoint
CREATE TABLE "scoring_run" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scoring_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"mode" "scoring_mode" NOT NULL,
	"embedder" text NOT NULL,
	"scorer_version" text NOT NULL,
	"idf_corpus_size" integer,
	"baseline" double precision,
	"model_ids" jsonb NOT NULL,
	"state" "job_state" DEFAULT 'queued' NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"error" text,
	"summary" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_used_by_user_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import" ADD CONSTRAINT "import_dataset_id_dataset_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."dataset"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import" ADD CONSTRAINT "import_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passage" ADD CONSTRAINT "passage_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item" ADD CONSTRAINT "qa_item_dataset_id_dataset_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."dataset"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item" ADD CONSTRAINT "qa_item_current_version_id_qa_item_version_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item" ADD CONSTRAINT "qa_item_first_import_id_import_id_fk" FOREIGN KEY ("first_import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item" ADD CONSTRAINT "qa_item_last_import_id_import_id_fk" FOREIGN KEY ("last_import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item_version" ADD CONSTRAINT "qa_item_version_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item_version" ADD CONSTRAINT "qa_item_version_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_item_version" ADD CONSTRAINT "qa_item_version_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "response" ADD CONSTRAINT "response_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "response" ADD CONSTRAINT "response_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "response" ADD CONSTRAINT "response_model_id_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."model"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "response" ADD CONSTRAINT "response_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjudication" ADD CONSTRAINT "adjudication_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjudication" ADD CONSTRAINT "adjudication_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjudication" ADD CONSTRAINT "adjudication_adjudicator_id_user_id_fk" FOREIGN KEY ("adjudicator_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_review_id_review_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."review"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_raised_by_user_id_fk" FOREIGN KEY ("raised_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_comment" ADD CONSTRAINT "dispute_comment_dispute_id_dispute_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."dispute"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_comment" ADD CONSTRAINT "dispute_comment_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_note" ADD CONSTRAINT "feedback_note_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_note" ADD CONSTRAINT "feedback_note_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_note" ADD CONSTRAINT "feedback_note_review_id_review_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."review"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_note" ADD CONSTRAINT "feedback_note_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_note" ADD CONSTRAINT "feedback_note_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_task_id_review_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."review_task"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_supersedes_id_review_id_fk" FOREIGN KEY ("supersedes_id") REFERENCES "public"."review"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_excluded_user_id_user_id_fk" FOREIGN KEY ("excluded_user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_leased_by_user_id_fk" FOREIGN KEY ("leased_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_done_by_user_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot" ADD CONSTRAINT "snapshot_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot_item" ADD CONSTRAINT "snapshot_item_snapshot_id_snapshot_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."snapshot"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot_item" ADD CONSTRAINT "snapshot_item_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot_item" ADD CONSTRAINT "snapshot_item_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_skip" ADD CONSTRAINT "task_skip_task_id_review_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."review_task"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_skip" ADD CONSTRAINT "task_skip_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_study_question_id_study_question_id_fk" FOREIGN KEY ("study_question_id") REFERENCES "public"."study_question"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_physician_id_user_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_candidate" ADD CONSTRAINT "assignment_candidate_assignment_id_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_candidate" ADD CONSTRAINT "assignment_candidate_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate" ADD CONSTRAINT "candidate_study_question_id_study_question_id_fk" FOREIGN KEY ("study_question_id") REFERENCES "public"."study_question"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate" ADD CONSTRAINT "candidate_response_id_response_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."response"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate" ADD CONSTRAINT "candidate_model_id_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."model"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking" ADD CONSTRAINT "ranking_assignment_id_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking" ADD CONSTRAINT "ranking_physician_id_user_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD CONSTRAINT "ranking_entry_ranking_id_ranking_id_fk" FOREIGN KEY ("ranking_id") REFERENCES "public"."ranking"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_entry" ADD CONSTRAINT "ranking_entry_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_study" ADD CONSTRAINT "ranking_study_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_model" ADD CONSTRAINT "study_model_study_id_ranking_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."ranking_study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_model" ADD CONSTRAINT "study_model_model_id_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."model"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_study_id_ranking_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."ranking_study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_question" ADD CONSTRAINT "study_question_item_version_id_qa_item_version_id_fk" FOREIGN KEY ("item_version_id") REFERENCES "public"."qa_item_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score" ADD CONSTRAINT "score_run_id_scoring_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."scoring_run"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score" ADD CONSTRAINT "score_response_id_response_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."response"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score" ADD CONSTRAINT "score_item_id_qa_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."qa_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score" ADD CONSTRAINT "score_model_id_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."model"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_run" ADD CONSTRAINT "scoring_run_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_event_object_type_object_id_index" ON "audit_event" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE INDEX "audit_event_created_at_index" ON "audit_event" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "qa_item_type_id_index" ON "qa_item" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "qa_item_status_id_index" ON "qa_item" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "qa_item_last_import_id_id_index" ON "qa_item" USING btree ("last_import_id","id");--> statement-breakpoint
CREATE INDEX "qa_item_paragraph_id_index" ON "qa_item" USING btree ("paragraph_id");--> statement-breakpoint
CREATE INDEX "response_model_id_index" ON "response" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "dispute_status_index" ON "dispute" USING btree ("status");--> statement-breakpoint
CREATE INDEX "dispute_item_id_index" ON "dispute" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "feedback_note_item_id_index" ON "feedback_note" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "feedback_note_category_index" ON "feedback_note" USING btree ("category");--> statement-breakpoint
CREATE INDEX "review_reviewer_id_submitted_at_index" ON "review" USING btree ("reviewer_id","submitted_at");--> statement-breakpoint
CREATE INDEX "review_item_id_index" ON "review" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "review_task_claimable" ON "review_task" USING btree ("round","id") WHERE "review_task"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "review_task_leased" ON "review_task" USING btree ("lease_expires_at") WHERE "review_task"."state" = 'leased';--> statement-breakpoint
CREATE INDEX "review_task_leased_by_index" ON "review_task" USING btree ("leased_by");--> statement-breakpoint
CREATE UNIQUE INDEX "snapshot_item_snapshot_id_item_id_index" ON "snapshot_item" USING btree ("snapshot_id","item_id");--> statement-breakpoint
CREATE INDEX "assignment_physician_id_state_index" ON "assignment" USING btree ("physician_id","state");--> statement-breakpoint
CREATE INDEX "candidate_study_question_id_index" ON "candidate" USING btree ("study_question_id");--> statement-breakpoint
CREATE INDEX "study_question_claimable" ON "study_question" USING btree ("study_id","id") WHERE "study_question"."open_slots" > 0;--> statement-breakpoint
CREATE INDEX "score_run_id_model_id_type_index" ON "score" USING btree ("run_id","model_id","type");