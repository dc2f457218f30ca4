// The audit trail: what other features and the routes may use (see README.md).
export { recordAudit } from './audit';
export {
	AUDIT_ACTIONS,
	AUDIT_CSV_HEADER,
	AUDIT_OBJECT_TYPES,
	actionLabel,
	auditCsvLine,
	auditDiff,
	objectHref
} from './present';
export {
	allAuditEvents,
	auditActors,
	auditFilterSchema,
	listAuditEvents,
	type AuditCursor,
	type AuditFilter
} from './query';
