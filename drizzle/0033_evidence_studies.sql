CREATE TYPE "public"."evidence_mode" AS ENUM('assertion', 'sentence');--> statement-breakpoint
CREATE TYPE "public"."document_relation" AS ENUM('supports', 'partially_supports', 'contradicts', 'neutral', 'not_relevant');--> statement-breakpoint
CREATE TYPE "public"."evidence_relevance" AS ENUM('required', 'unnecessary', 'borderline', 'inappropriate');--> statement-breakpoint
ALTER TYPE "public"."import_kind" ADD VALUE 'documents';--> statement-breakpoint
ALTER TYPE "public"."import_kind" ADD VALUE 'runs';--> statement-breakpoint
ALTER TYPE "public"."study_design" ADD VALUE 'evidence';--> statement-breakpoint
CREATE TABLE "document" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "document_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"pmid" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"abstract" text NOT NULL,
	"sentences" jsonb NOT NULL,
	"record" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_pmid_unique" UNIQUE("pmid")
);
--> statement-breakpoint
CREATE TABLE "evidence_answer_sentence" (
	"set_response_id" integer NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"citations" text[] DEFAULT '{}'::text[] NOT NULL,
	"claimed" jsonb,
	CONSTRAINT "evidence_answer_sentence_set_response_id_position_pk" PRIMARY KEY("set_response_id","position"),
	CONSTRAINT "position_positive" CHECK ("evidence_answer_sentence"."position" >= 1)
);
--> statement-breakpoint
CREATE TABLE "evidence_assertion" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "evidence_assertion_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"position" integer NOT NULL,
	"start_word" smallint NOT NULL,
	"end_word" smallint NOT NULL,
	"relevance" "evidence_relevance",
	CONSTRAINT "evidence_assertion_assignmentId_position_startWord_unique" UNIQUE("assignment_id","position","start_word"),
	CONSTRAINT "span_order" CHECK ("evidence_assertion"."start_word" >= 0 and "evidence_assertion"."end_word" > "evidence_assertion"."start_word")
);
--> statement-breakpoint
CREATE TABLE "evidence_assessment" (
	"assignment_id" integer PRIMARY KEY NOT NULL,
	"rater_id" text NOT NULL,
	"answers_question" boolean,
	"time_on_task_ms" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "evidence_relation" (
	"assertion_id" integer NOT NULL,
	"pmid" text NOT NULL,
	"relation" "document_relation" NOT NULL,
	"evidence" integer[] DEFAULT '{}'::integer[] NOT NULL,
	CONSTRAINT "evidence_relation_assertion_id_pmid_pk" PRIMARY KEY("assertion_id","pmid")
);
--> statement-breakpoint
CREATE TABLE "evidence_sentence" (
	"candidate_id" integer NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"words" text[] NOT NULL,
	"citations" text[] DEFAULT '{}'::text[] NOT NULL,
	"claimed" jsonb,
	CONSTRAINT "evidence_sentence_candidate_id_position_pk" PRIMARY KEY("candidate_id","position")
);
--> statement-breakpoint
CREATE TABLE "evidence_sentence_label" (
	"assignment_id" integer NOT NULL,
	"position" integer NOT NULL,
	"interpretable" boolean,
	CONSTRAINT "evidence_sentence_label_assignment_id_position_pk" PRIMARY KEY("assignment_id","position")
);
--> statement-breakpoint
CREATE TABLE "evidence_study" (
	"study_id" integer PRIMARY KEY NOT NULL,
	"mode" "evidence_mode" DEFAULT 'assertion' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document" ADD CONSTRAINT "document_import_id_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_answer_sentence" ADD CONSTRAINT "evidence_answer_sentence_set_response_id_set_response_id_fk" FOREIGN KEY ("set_response_id") REFERENCES "public"."set_response"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_assertion" ADD CONSTRAINT "evidence_assertion_assignment_id_evidence_assessment_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."evidence_assessment"("assignment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_assessment" ADD CONSTRAINT "evidence_assessment_assignment_id_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_assessment" ADD CONSTRAINT "evidence_assessment_rater_id_user_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_relation" ADD CONSTRAINT "evidence_relation_assertion_id_evidence_assertion_id_fk" FOREIGN KEY ("assertion_id") REFERENCES "public"."evidence_assertion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_sentence" ADD CONSTRAINT "evidence_sentence_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_sentence_label" ADD CONSTRAINT "evidence_sentence_label_assignment_id_evidence_assessment_assignment_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."evidence_assessment"("assignment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_study" ADD CONSTRAINT "evidence_study_study_id_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_relation_pmid_index" ON "evidence_relation" USING btree ("pmid");