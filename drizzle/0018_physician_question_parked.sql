CREATE TABLE "study_physician_question_parked" (
	"study_question_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"study_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "study_physician_question_parked_study_question_id_physician_id_pk" PRIMARY KEY("study_question_id","physician_id")
);
