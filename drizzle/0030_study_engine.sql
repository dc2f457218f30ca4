-- The ranking study becomes the study of any design: the table and its constraints are renamed
-- (no row is copied or lost); every existing study is a ranking study (0029 set the column's default).
ALTER TABLE "ranking_study" RENAME TO "study";--> statement-breakpoint
ALTER SEQUENCE "ranking_study_id_seq" RENAME TO "study_id_seq";--> statement-breakpoint
ALTER TABLE "study" RENAME CONSTRAINT "ranking_study_pkey" TO "study_pkey";--> statement-breakpoint
ALTER TABLE "study" RENAME CONSTRAINT "ranking_study_name_unique" TO "study_name_unique";--> statement-breakpoint
ALTER TABLE "study" RENAME CONSTRAINT "ranking_study_created_by_user_id_fk" TO "study_created_by_user_id_fk";--> statement-breakpoint
ALTER TABLE "study" RENAME CONSTRAINT "ranking_study_question_set_id_question_set_id_fk" TO "study_question_set_id_question_set_id_fk";--> statement-breakpoint
ALTER TABLE "judge" RENAME CONSTRAINT "judge_study_id_ranking_study_id_fk" TO "judge_study_id_study_id_fk";--> statement-breakpoint
ALTER TABLE "study_model" RENAME CONSTRAINT "study_model_study_id_ranking_study_id_fk" TO "study_model_study_id_study_id_fk";--> statement-breakpoint
ALTER TABLE "study_physician" RENAME CONSTRAINT "study_physician_study_id_ranking_study_id_fk" TO "study_physician_study_id_study_id_fk";--> statement-breakpoint
ALTER TABLE "study_question" RENAME CONSTRAINT "study_question_study_id_ranking_study_id_fk" TO "study_question_study_id_study_id_fk";--> statement-breakpoint
ALTER TABLE "rubric_study" RENAME CONSTRAINT "rubric_study_study_id_ranking_study_id_fk" TO "rubric_study_study_id_study_id_fk";
--> statement-breakpoint
-- PostgreSQL 18 also names each NOT NULL constraint after its table (`ranking_study_name_not_null`);
-- older servers have none, so these are renamed by what the catalogue holds.
DO $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT conname FROM pg_constraint
		WHERE conrelid = 'study'::regclass AND conname LIKE 'ranking\_study\_%'
	LOOP
		EXECUTE format('ALTER TABLE study RENAME CONSTRAINT %I TO %I', r.conname,
			'study_' || substr(r.conname, length('ranking_study_') + 1));
	END LOOP;
END
$$;
