-- Audit events are append-only: the database itself refuses to change or remove one, whoever asks.
CREATE OR REPLACE FUNCTION audit_event_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_event is append-only: % is not allowed', TG_OP
		USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
	FOR EACH ROW EXECUTE FUNCTION audit_event_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
	FOR EACH STATEMENT EXECUTE FUNCTION audit_event_refuse_change();
--> statement-breakpoint
-- Invitations made before links could be reissued were issued when they were created.
UPDATE invitation SET issued_at = created_at;
