CREATE TYPE "public"."rater_hold_kind" AS ENUM('pause', 'retrain');--> statement-breakpoint
CREATE TABLE "rater_hold" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rater_hold_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"rater_id" text NOT NULL,
	"kind" "rater_hold_kind" NOT NULL,
	"reason" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" text,
	"lift_note" text
);
--> statement-breakpoint
ALTER TABLE "rater_hold" ADD CONSTRAINT "rater_hold_study_id_study_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."study"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rater_hold" ADD CONSTRAINT "rater_hold_rater_id_user_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rater_hold" ADD CONSTRAINT "rater_hold_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rater_hold" ADD CONSTRAINT "rater_hold_lifted_by_user_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rater_hold_standing" ON "rater_hold" USING btree ("study_id","rater_id") WHERE "rater_hold"."lifted_at" is null;