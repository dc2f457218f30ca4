CREATE TABLE "review_gold" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_gold_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"record" jsonb NOT NULL,
	"shown" jsonb NOT NULL,
	"passage" text,
	"verdict" "verdict" NOT NULL,
	"relevance" smallint NOT NULL,
	"explanation" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review_gold_answer" (
	"gold_id" integer NOT NULL,
	"reviewer_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"verdict" "verdict" NOT NULL,
	"relevance" smallint NOT NULL,
	"time_on_task_ms" integer,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_gold_answer_gold_id_reviewer_id_pk" PRIMARY KEY("gold_id","reviewer_id")
);
--> statement-breakpoint
CREATE TABLE "review_qualification_attempt" (
	"reviewer_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"score" double precision NOT NULL,
	"questions" integer NOT NULL,
	"passed" boolean NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_qualification_attempt_reviewer_id_attempt_pk" PRIMARY KEY("reviewer_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "reviewer_round" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"pass_mark" double precision DEFAULT 0.8 NOT NULL,
	"questions_per_attempt" integer DEFAULT 5 NOT NULL,
	"max_attempts" integer DEFAULT 2 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviewer_round_single" CHECK ("reviewer_round"."id" = 1),
	CONSTRAINT "reviewer_round_pass_mark" CHECK ("reviewer_round"."pass_mark" > 0 and "reviewer_round"."pass_mark" <= 1),
	CONSTRAINT "reviewer_round_per_attempt" CHECK ("reviewer_round"."questions_per_attempt" between 1 and 100),
	CONSTRAINT "reviewer_round_attempts" CHECK ("reviewer_round"."max_attempts" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "qualification_grant" ALTER COLUMN "study_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "review_gold" ADD CONSTRAINT "review_gold_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_gold_answer" ADD CONSTRAINT "review_gold_answer_gold_id_review_gold_id_fk" FOREIGN KEY ("gold_id") REFERENCES "public"."review_gold"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_gold_answer" ADD CONSTRAINT "review_gold_answer_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_qualification_attempt" ADD CONSTRAINT "review_qualification_attempt_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_round" ADD CONSTRAINT "reviewer_round_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_gold_answer_reviewer" ON "review_gold_answer" USING btree ("reviewer_id","attempt");