// The one way the domain refuses something it expected: a DomainError with a code, optionally the
// form field it concerns, and a message written for the user. Routes turn it into a form failure
// (`failWith`); anything else is a bug and reaches handleError. Loads answer a missing thing with
// SvelteKit's `error(404, …)` themselves.
import { fail } from '@sveltejs/kit';
import type { z } from 'zod';
import type { ImportProblemKind } from '$lib/constants';
import { problemKind, type RecordError } from '$lib/schemas/qa-record';

/** What went wrong, as far as the caller needs to know; each code has one HTTP status. */
export const DOMAIN_ERROR_STATUS = {
	/** The input breaks a rule (a form field, a file, a setting). */
	invalid: 400,
	/** A rule asks the user to confirm before the change is made (e.g. inconsistent tags). */
	needs_confirmation: 400,
	/** The user may not do this (beyond the role guards, e.g. changing their own role). */
	forbidden: 403,
	/** The thing does not exist, or is not the user's. */
	not_found: 404,
	/** The state changed under the user: a lease ran out, a study closed, a key was reused. */
	conflict: 409,
	/** The work item is not (or no longer) leased to the user. */
	not_leased: 409,
	/** The user already submitted this work item. */
	already_submitted: 409,
	/** The thing is frozen (adjudicated, in a snapshot, a closed study). */
	locked: 409
} as const;
export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export interface DomainErrorDetails {
	/** The form field the message is about. */
	field?: string;
	/** Several specific problems, each a sentence for the user (the message summarises them). */
	problems?: readonly string[];
	/** Per-record problems of a rejected import: record index → field → reason. */
	records?: readonly RecordError[];
}

/** An expected refusal; nothing was changed. */
export class DomainError extends Error {
	readonly field?: string;
	readonly problems: readonly string[];
	readonly records: readonly RecordError[];

	constructor(
		readonly code: DomainErrorCode,
		message: string,
		details: DomainErrorDetails = {}
	) {
		super(message);
		this.name = 'DomainError';
		this.field = details.field;
		this.problems = details.problems ?? [];
		this.records = details.records ?? [];
	}

	get status(): number {
		return DOMAIN_ERROR_STATUS[this.code];
	}
}

/** A refused form's payload, the same shape for every action. */
export interface FormFailure {
	code: DomainErrorCode;
	message: string;
	/** One message per field. */
	errors: Record<string, string>;
	problems: string[];
	/** The first MAX_RECORDS_SHOWN record problems of a rejected import … */
	records: RecordError[];
	/** … out of this many. */
	recordCount: number;
	/** How many of all the record problems are of each kind (the page groups them by kind). */
	recordKinds: Partial<Record<ImportProblemKind, number>>;
}

/** How many per-record problems a page receives (the CLI prints them all). */
export const MAX_RECORDS_SHOWN = 200;

/** The form payload of a DomainError. */
export function failureOf(e: DomainError): FormFailure {
	return {
		code: e.code,
		message: e.message,
		errors: e.field ? { [e.field]: e.message } : {},
		problems: [...e.problems],
		records: e.records.slice(0, MAX_RECORDS_SHOWN),
		recordCount: e.records.length,
		recordKinds: e.records.reduce<FormFailure['recordKinds']>((n, r) => {
			const kind = problemKind(r);
			n[kind] = (n[kind] ?? 0) + 1;
			return n;
		}, {})
	};
}

/**
 * Maps a DomainError to the action's `fail(status, …)` (plus `extra`, e.g. the values to put back
 * in the form); anything else is rethrown.
 */
export function failWith<T extends object = object>(e: unknown, extra?: T) {
	if (e instanceof DomainError) return fail(e.status, { ...(extra as T), ...failureOf(e) });
	throw e;
}

/**
 * Validates a domain function's input: the parsed value, or a DomainError `invalid` naming the
 * first field at fault ("email must be an email address") and listing every problem.
 */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
	const parsed = schema.safeParse(input);
	if (parsed.success) return parsed.data;
	const problems = parsed.error.issues.map(
		(i) => `${i.path.length ? `${i.path.map(String).join('.')} ` : ''}${i.message}.`
	);
	const first = parsed.error.issues[0];
	throw new DomainError('invalid', problems[0], {
		field: first.path.length ? String(first.path[0]) : undefined,
		problems
	});
}
