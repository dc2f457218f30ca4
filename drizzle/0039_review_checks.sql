CREATE TABLE "review_check" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_check_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"public_id" text NOT NULL,
	"reviewer_id" text NOT NULL,
	"gold_id" integer NOT NULL,
	"round" "review_round" NOT NULL,
	"state" text DEFAULT 'leased' NOT NULL,
	"lease_token" text NOT NULL,
	"lease_minutes" integer NOT NULL,
	"leased_at" timestamp with time zone NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"claim_index" integer NOT NULL,
	"verdict" "verdict",
	"relevance" smallint,
	"matched" smallint,
	"feedback" text,
	"dispute_reason" text,
	"time_on_task_ms" integer,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "review_check_publicId_unique" UNIQUE("public_id"),
	CONSTRAINT "review_check_once" UNIQUE("reviewer_id","gold_id"),
	CONSTRAINT "review_check_state" CHECK ("review_check"."state" in ('leased', 'done', 'skipped', 'released'))
);
--> statement-breakpoint
CREATE TABLE "reviewer_claims" (
	"user_id" text PRIMARY KEY NOT NULL,
	"claims" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_task" ADD COLUMN "public_id" text;--> statement-breakpoint
ALTER TABLE "reviewer_round" ADD COLUMN "check_every" integer;--> statement-breakpoint
ALTER TABLE "review_check" ADD CONSTRAINT "review_check_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_check" ADD CONSTRAINT "review_check_gold_id_review_gold_id_fk" FOREIGN KEY ("gold_id") REFERENCES "public"."review_gold"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_claims" ADD CONSTRAINT "reviewer_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_check_reviewer" ON "review_check" USING btree ("reviewer_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "review_task_public_id" ON "review_task" USING btree ("public_id");--> statement-breakpoint
ALTER TABLE "reviewer_round" ADD CONSTRAINT "reviewer_round_check_every" CHECK ("reviewer_round"."check_every" between 2 and 1000);--> statement-breakpoint
-- Leases held while the portal is upgraded get an id for the reviewer's screen (new leases draw theirs).
UPDATE "review_task" SET "public_id" = translate(substr(md5(random()::text || "id"::text), 1, 24), '01', 'ab')
WHERE "state" = 'leased';
