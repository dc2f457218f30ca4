-- Snapshot rows frozen before provenance was kept: take the item's provenance as it stands now (snapshots froze verified items, whose provenance no later step changes except an adjudication after a new disagreement).
UPDATE "snapshot_item" SET "provenance" = "qa_item"."provenance" FROM "qa_item" WHERE "qa_item"."id" = "snapshot_item"."item_id" AND "snapshot_item"."provenance" IS NULL;
