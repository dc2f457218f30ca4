-- Trigram operators for substring search of the item table (a trusted extension since PostgreSQL 13;
-- PGlite loads it when the database opens).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "qa_item_question_sort" ON "qa_item" USING btree (left("question", 200),"id");--> statement-breakpoint
CREATE INDEX "qa_item_updated_at_id_index" ON "qa_item" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "qa_item_final_verdict_id_index" ON "qa_item" USING btree ("final_verdict","id");--> statement-breakpoint
CREATE INDEX "qa_item_final_relevance_id_index" ON "qa_item" USING btree ("final_relevance","id");--> statement-breakpoint
CREATE INDEX "qa_item_provenance_id_index" ON "qa_item" USING btree ("provenance","id");--> statement-breakpoint
CREATE INDEX "qa_item_current_version_id_index" ON "qa_item" USING btree ("current_version_id");--> statement-breakpoint
CREATE INDEX "qa_item_item_key_prefix" ON "qa_item" USING btree ("item_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "qa_item_version_question_trgm" ON "qa_item_version" USING gin ("question" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "qa_item_version_answer_trgm" ON "qa_item_version" USING gin ("answer" gin_trgm_ops);