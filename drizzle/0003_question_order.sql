CREATE TABLE "study_physician" (
	"study_id" integer NOT NULL,
	"physician_id" text NOT NULL,
	"order_seed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "study_physician_study_id_physician_id_pk" PRIMARY KEY("study_id","physician_id")
);
--> statement-breakpoint
ALTER TABLE "assignment" ADD COLUMN "presentation_position" integer;--> statement-breakpoint
ALTER TABLE "study_physician" ADD CONSTRAINT "study_physician_study_id_ranking_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."ranking_study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_physician" ADD CONSTRAINT "study_physician_physician_id_user_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;