DROP INDEX "qa_item_status_id_index";--> statement-breakpoint
CREATE INDEX "qa_item_status_sort" ON "qa_item" USING btree ("status","id","type","final_verdict");--> statement-breakpoint
CREATE INDEX "review_first_revision_time" ON "review" USING btree ("reviewer_id","time_on_task_ms") WHERE "review"."revision" = 1;--> statement-breakpoint
CREATE INDEX "review_without_passage" ON "review" USING btree ("item_id") WHERE "review"."without_passage";