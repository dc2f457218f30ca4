CREATE TABLE "study_physician_question" (
	"study_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"position" integer NOT NULL,
	"study_question_id" integer NOT NULL,
	CONSTRAINT "study_physician_question_study_id_physician_id_position_pk" PRIMARY KEY("study_id","physician_id","position")
);
--> statement-breakpoint
ALTER TABLE "study_physician" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "study_physician" ADD COLUMN "presented" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "study_physician_question" ADD CONSTRAINT "study_physician_question_study_question_id_study_question_id_fk" FOREIGN KEY ("study_question_id") REFERENCES "public"."study_question"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_physician_question" ADD CONSTRAINT "study_physician_question_physician_fk" FOREIGN KEY ("study_id","physician_id") REFERENCES "public"."study_physician"("study_id","physician_id") ON DELETE no action ON UPDATE no action;