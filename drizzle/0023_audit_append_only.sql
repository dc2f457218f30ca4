-- Audit events are append-only: the function and triggers this migration created live in
-- src/lib/server/db/functions/audit.sql.

-- Invitations made before links could be reissued were issued when they were created.
UPDATE invitation SET issued_at = created_at;
