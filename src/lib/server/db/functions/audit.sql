-- The audit trail's guard: audit events are append-only, and the database itself refuses to change
-- or remove one, whoever asks (src/lib/server/domain/audit only ever inserts).
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Raises for any UPDATE, DELETE or TRUNCATE of audit_event; the two triggers below call it.
CREATE OR REPLACE FUNCTION audit_event_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_event is append-only: % is not allowed', TG_OP
		USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE OR REPLACE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
	FOR EACH ROW EXECUTE FUNCTION audit_event_refuse_change();

CREATE OR REPLACE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
	FOR EACH STATEMENT EXECUTE FUNCTION audit_event_refuse_change();
