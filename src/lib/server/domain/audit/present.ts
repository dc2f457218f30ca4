// How audit events read for people: a label per action, a link to the object where the portal has
// a page for it, a compact before/after diff, and the CSV export's rows.
import type { AuditRow } from './query';
import { safeCsvCell } from '../../csv';

/** Every action the portal writes, by family, with the label the audit page shows. */
export const AUDIT_ACTIONS: Record<string, Record<string, string>> = {
	review: { 'review.submit': 'Review submitted', 'review.amend': 'Review amended' },
	review_task: {
		'review_task.lease': 'Review task leased',
		'review_task.release': 'Review task released',
		'review_task.skip': 'Review task skipped'
	},
	ranking: { 'ranking.submit': 'Ranking submitted' },
	item: {
		'item.adjudicate': 'Item adjudicated',
		'item.correct': 'Item corrected',
		'item.withdraw': 'Item withdrawn'
	},
	dispute: {
		'dispute.open': 'Dispute opened',
		'dispute.under_review': 'Dispute taken under review',
		'dispute.upheld': 'Dispute upheld',
		'dispute.rejected': 'Dispute rejected'
	},
	feedback: { 'feedback.resolve': 'Feedback resolved' },
	dataset: {
		'dataset.sample_import': 'Secondary sample drawn',
		'dataset.settings': 'Verification settings changed'
	},
	snapshot: { 'snapshot.freeze': 'Snapshot frozen' },
	study: {
		'study.create': 'Study created',
		'study.open': 'Study opened',
		'study.pause': 'Study paused',
		'study.close': 'Study closed',
		'study.withdraw': 'Rater withdrew from the study'
	},
	consent: {
		'consent.publish': 'Consent text version published',
		'consent.accept': 'Consent text accepted'
	},
	rubric: {
		'rubric.create': 'Rubric created',
		'rubric.version': 'Rubric version saved'
	},
	import: {
		'import.qa': 'QA items imported',
		'import.passages': 'Passages imported',
		'import.responses': 'Model outputs imported',
		'import.questions': 'Question set imported',
		'import.set_responses': 'Responses to a question set imported',
		'import.documents': 'Documents (PubMed abstracts) imported',
		'import.runs': 'Runs (answers with citations) imported'
	},
	set_response: {
		'set_response.merge_sentences': 'Answer sentences merged',
		'set_response.split_sentence': 'Answer sentence split'
	},
	question_set: { 'question_set.create': 'Question set created' },
	scoring_run: {
		'scoring_run.create': 'Scoring run started',
		'scoring_run.rerun': 'Scoring run repeated'
	},
	user: {
		'user.create': 'Account created',
		'user.roles': 'Roles changed',
		'user.deactivate': 'Account deactivated',
		'user.reactivate': 'Account reactivated',
		'user.password_reset': 'Password-reset link issued',
		'user.password_reset_use': 'Password reset',
		'user.sso_link': 'Single sign-on linked'
	},
	institution: {
		'institution.create': 'Institution created',
		'institution.update': 'Institution renamed',
		'institution.sso': 'Single sign-on settings changed'
	},
	application: {
		'application.submit': 'Application submitted',
		'application.approve': 'Application approved',
		'application.decline': 'Application declined'
	},
	invitation: {
		'invitation.create': 'Invitation created',
		'invitation.resend': 'Invitation link reissued',
		'invitation.revoke': 'Invitation revoked',
		'invitation.accept': 'Invitation accepted'
	},
	auth: { 'auth.sign_in_burst': 'Repeated failed sign-ins' },
	exclusion: {
		'exclusion.create': 'Judgements excluded',
		'exclusion.revoke': 'Exclusion revoked'
	}
};

const LABELS: Record<string, string> = Object.assign({}, ...Object.values(AUDIT_ACTIONS));

/** The label of an action; an action without one shows as itself. */
export function actionLabel(action: string): string {
	return LABELS[action] ?? action;
}

/** The kinds of object events are about, with the label the filter menu shows. */
export const AUDIT_OBJECT_TYPES: Record<string, string> = {
	qa_item: 'QA item',
	review: 'Review',
	review_task: 'Review task',
	ranking: 'Ranking',
	study: 'Study',
	/** Studies' events before the study engine (all ranking studies). */
	ranking_study: 'Ranking study',
	rubric: 'Rubric',
	question_set: 'Question set',
	rubric_judgement: 'Rubric score sheet',
	judge: 'Automatic judge',
	dispute: 'Dispute',
	feedback_note: 'Feedback note',
	dataset: 'Dataset',
	snapshot: 'Snapshot',
	import: 'Import',
	scoring_run: 'Scoring run',
	user: 'Account',
	invitation: 'Invitation',
	sign_in: 'Sign-in',
	consent: 'Consent text',
	exclusion: 'Exclusion of judgements',
	institution: 'Institution',
	application: 'Application'
};

function field(value: unknown, key: string): unknown {
	return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}
const positive = (v: unknown) =>
	(typeof v === 'number' || typeof v === 'string') && /^\d+$/.test(String(v)) ? String(v) : null;

/** The portal page of an event's object (or of the item or study it concerns), if there is one. */
export function objectHref(e: Pick<AuditRow, 'objectType' | 'objectId' | 'after'>): string | null {
	const id = positive(e.objectId);
	switch (e.objectType) {
		case 'qa_item':
			return id && `/admin/items/${id}`;
		case 'review':
		case 'review_task': {
			const item = positive(field(e.after, 'itemId'));
			return item && `/admin/items/${item}`;
		}
		case 'ranking':
		case 'rubric_judgement':
		case 'judge': {
			const study = positive(field(e.after, 'studyId'));
			return study && `/admin/studies/${study}`;
		}
		case 'study':
		case 'ranking_study':
			return id && `/admin/studies/${id}`;
		case 'rubric':
			return id && `/admin/rubrics/${id}`;
		case 'consent':
			return '/admin/consent';
		case 'institution':
			return id && `/admin/institutions/${id}`;
		case 'application': {
			const institution = positive(field(e.after, 'institutionId'));
			return institution && `/admin/institutions/${institution}`;
		}
		case 'dispute':
			return id && `/admin/verification/disputes/${id}`;
		case 'snapshot':
			return id && `/admin/verification/snapshots/${id}`;
		case 'scoring_run':
			return id && `/admin/scoring/${id}`;
		case 'feedback_note':
			return '/admin/verification/feedback';
		case 'dataset':
			return '/admin/verification/settings';
		case 'import':
			return '/admin/imports';
		case 'user':
			return `/admin/users#user-${encodeURIComponent(e.objectId)}`;
		case 'invitation':
			return '/admin/users#invitations';
		case 'exclusion': {
			const rater = field(e.after, 'raterId');
			return typeof rater === 'string'
				? `/admin/users/${encodeURIComponent(rater)}/exclusions`
				: null;
		}
		default:
			return null;
	}
}

/** One changed (or recorded) field of an event: its value before and after, as short text. */
export interface DiffEntry {
	key: string;
	before: string | null;
	after: string | null;
}

function show(value: unknown): string | null {
	if (value === undefined) return null;
	if (typeof value === 'string') return value;
	return JSON.stringify(value);
}

/**
 * The fields of an event's before and after, those that differ only (a field present on one side
 * only is listed with the other side empty). Top-level keys; nested values shown as JSON.
 */
export function auditDiff(before: unknown, after: unknown): DiffEntry[] {
	const b = before && typeof before === 'object' ? (before as Record<string, unknown>) : {};
	const a = after && typeof after === 'object' ? (after as Record<string, unknown>) : {};
	const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
	const out: DiffEntry[] = [];
	for (const key of keys) {
		const from = show(b[key]);
		const to = show(a[key]);
		if (from !== to) out.push({ key, before: from, after: to });
	}
	if (!keys.length && (before != null || after != null))
		out.push({
			key: '(value)',
			before: show(before ?? undefined),
			after: show(after ?? undefined)
		});
	return out;
}

/** The CSV export's columns. */
export const AUDIT_CSV_HEADER = [
	'id',
	'time_utc',
	'actor_id',
	'actor_name',
	'actor_pseudonym',
	'action',
	'action_label',
	'object_type',
	'object_id',
	'before',
	'after'
];

/** One CSV cell, injection-safe (the shared rule of the portal's exports of typed text). */
export const csvCell = safeCsvCell;

/** One event as a CSV line (with its CRLF). */
export function auditCsvLine(e: AuditRow): string {
	return (
		[
			e.id,
			e.createdAt.toISOString(),
			e.actor?.id ?? '',
			e.actor?.displayName ?? '',
			e.actor?.pseudonym ?? '',
			e.action,
			actionLabel(e.action),
			e.objectType,
			e.objectId,
			e.before,
			e.after
		]
			.map(csvCell)
			.join(',') + '\r\n'
	);
}
