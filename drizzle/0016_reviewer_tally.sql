CREATE TABLE "reviewer_tally" (
	"user_id" text NOT NULL,
	"dataset_id" integer NOT NULL,
	"reviewed" integer DEFAULT 0 NOT NULL,
	"sampled" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "reviewer_tally_user_id_dataset_id_pk" PRIMARY KEY("user_id","dataset_id")
);
--> statement-breakpoint
ALTER TABLE "reviewer_tally" ADD CONSTRAINT "reviewer_tally_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;