// The reviewers' qualification round: gold QA pairs with a known verdict, GP relevance and an
// explanation, worked in attempts before any live review. A reviewer answers one pair at a time
// (in their own seeded order, never the same pair twice), sees the gold answer and explanation
// after each, and passes an attempt whose labels match the gold at the pass mark. When the round is
// required, the review queue gives live work only to those who passed (`review_claim_next`).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db } from '../../db/client';
import {
	reviewerRound,
	reviewGold,
	reviewGoldAnswer,
	reviewQualificationAttempt,
	type ReviewerRound
} from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { JsonFormError, parseJsonText } from '../imports';
import { itemKey, typedFields } from '../items';
import { validateQaRecord } from '../../../schemas/qa-record';
import { wilson } from '../../../stats/blinding-attack';
import type { GoldScore } from './gold-compare';
import { grantFields, recordGrant } from './grants';
import { MIN_CHECKS_TO_FLAG, type GoldAccuracy } from './qualification';
import { VERDICTS, type QaType, type Verdict } from '../../../constants';

/** Most gold QA pairs one file may hold. */
export const MAX_REVIEW_GOLD_RECORDS = 2_000;
/** Longest explanation and passage (characters). */
const MAX_EXPLANATION = 5_000;
const MAX_PASSAGE = 100_000;

/** The round's settings (the defaults until an organiser saves them). */
export type ReviewerRoundSettings = Pick<
	ReviewerRound,
	'required' | 'passMark' | 'questionsPerAttempt' | 'maxAttempts' | 'checkEvery'
>;

const DEFAULTS: ReviewerRoundSettings = {
	required: false,
	passMark: 0.8,
	questionsPerAttempt: 5,
	maxAttempts: 2,
	checkEvery: null
};

export async function reviewerRoundSettings(db: Db): Promise<ReviewerRoundSettings> {
	const [row] = await db.select().from(reviewerRound).where(eq(reviewerRound.id, 1));
	return row
		? {
				required: row.required,
				passMark: row.passMark,
				questionsPerAttempt: row.questionsPerAttempt,
				maxAttempts: row.maxAttempts,
				checkEvery: row.checkEvery
			}
		: { ...DEFAULTS };
}

export const reviewerRoundSettingsSchema = z.object({
	required: z.boolean(),
	passMark: z
		.number({ message: 'Give the pass mark.' })
		.gt(0, 'The pass mark must be above 0 %.')
		.lte(1, 'The pass mark is at most 100 %.'),
	questionsPerAttempt: z
		.number({ message: 'Give the questions per attempt.' })
		.int('Give a whole number.')
		.min(1, 'At least 1 question an attempt.')
		.max(100, 'At most 100 questions an attempt.'),
	maxAttempts: z
		.number({ message: 'Give the attempts allowed.' })
		.int('Give a whole number.')
		.min(1, 'At least 1 attempt.')
		.max(10, 'At most 10 attempts.'),
	/** Hidden gold checks: one in every N claims of each reviewer; null for none. */
	checkEvery: z
		.number({ message: 'Give how often a hidden check comes, or leave it empty.' })
		.int('Give a whole number.')
		.min(2, 'At most one check in every 2 items.')
		.max(1000, 'At least one check in every 1,000 items.')
		.nullable()
		.default(null)
});

/**
 * Saves the round's settings with an audit event. Requiring the round is refused while it has
 * fewer live gold pairs than one attempt asks: nobody could pass it.
 */
export async function updateReviewerRound(
	db: Db,
	input: z.input<typeof reviewerRoundSettingsSchema>,
	actorId: string,
	now = new Date()
): Promise<ReviewerRoundSettings> {
	const parsed = reviewerRoundSettingsSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	return db.transaction(async (tx) => {
		const before = await reviewerRoundSettings(tx);
		const live = await liveGoldCount(tx);
		if (v.required && live < v.questionsPerAttempt)
			throw new DomainError(
				'invalid',
				`The round has ${live} gold QA pair${live === 1 ? '' : 's'}; an attempt asks ${v.questionsPerAttempt}. Import gold pairs before requiring it.`,
				{ field: 'required' }
			);
		await tx
			.insert(reviewerRound)
			.values({ id: 1, ...v, updatedBy: actorId, updatedAt: now })
			.onConflictDoUpdate({
				target: reviewerRound.id,
				set: { ...v, updatedBy: actorId, updatedAt: now }
			});
		await recordAudit(tx, {
			actorId,
			action: 'reviewer_round.update',
			objectType: 'reviewer_round',
			objectId: 1,
			before,
			after: v
		});
		return v;
	});
}

async function liveGoldCount(db: Db) {
	const [{ n }] = rowsOf<{ n: number }>(
		await db.execute(sql`select count(*)::int as n from review_gold where retired_at is null`)
	);
	return Number(n);
}

const goldRecordSchema = z.object({
	item: z.unknown(),
	passage: z.string().max(MAX_PASSAGE, `is longer than ${MAX_PASSAGE} characters`).nullish(),
	verdict: z.enum(VERDICTS, { message: `must be one of ${VERDICTS.join(', ')}` }),
	relevance: z
		.number({ message: 'must be a whole number from 1 to 5' })
		.int('must be a whole number from 1 to 5')
		.min(1, 'must be a whole number from 1 to 5')
		.max(5, 'must be a whole number from 1 to 5'),
	explanation: z
		.string({ message: 'is missing' })
		.trim()
		.min(1, 'is empty')
		.max(MAX_EXPLANATION, `is longer than ${MAX_EXPLANATION} characters`)
});

/** What the review screen shows of a gold pair: the typed fields of QaItemView. */
function shownFields(record: Parameters<typeof typedFields>[0]) {
	const f = typedFields(record);
	return {
		type: f.type as QaType,
		question: f.question,
		answer: f.answer,
		answerList: f.answerList,
		options: f.options,
		correctAnswer: f.correctAnswer,
		reasoning: f.reasoning,
		falseAnswer: f.falseAnswer,
		incorrectExplanation: f.incorrectExplanation,
		incorrectStep: f.incorrectStep,
		incorrectStepExplanation: f.incorrectStepExplanation
	};
}
export type GoldShown = ReturnType<typeof shownFields>;

/**
 * Imports gold QA pairs from a JSON array of `{ item, passage?, verdict, relevance, explanation }`
 * records, `item` a ClinIQLink QA record of any of the seven types. All or nothing: every problem
 * of the file is listed (record number, field, reason) and nothing is saved. A pair already in the
 * round (same type, paragraph and question) is a problem too.
 */
export async function importReviewGold(
	db: Db,
	text: string,
	actorId: string
): Promise<{ imported: number }> {
	let data: unknown;
	try {
		// Nesting is checked before parsing: a hostile file cannot exhaust the stack.
		data = parseJsonText(text.replace(/^\uFEFF/, ''));
	} catch (e) {
		if (e instanceof JsonFormError)
			throw new DomainError('invalid', `The gold file is not valid JSON: ${e.message}`);
		throw e;
	}
	if (!Array.isArray(data))
		throw new DomainError('invalid', 'The gold file must be a JSON array of records.');
	if (data.length === 0) throw new DomainError('invalid', 'The gold file has no records.');
	if (data.length > MAX_REVIEW_GOLD_RECORDS)
		throw new DomainError(
			'invalid',
			`The gold file has ${data.length} records; at most ${MAX_REVIEW_GOLD_RECORDS} at once.`
		);
	const problems: string[] = [];
	const rows: (typeof reviewGold.$inferInsert)[] = [];
	const keys = new Map<string, number>();
	return db.transaction(async (tx) => {
		const existing = await tx
			.select({ shown: reviewGold.shown, record: reviewGold.record })
			.from(reviewGold)
			.where(isNull(reviewGold.retiredAt));
		const taken = new Set(
			existing.map((g) => {
				const r = g.record as { type: string; source?: { paragraph_id?: string } };
				return itemKey(r.type, r.source?.paragraph_id ?? null, (g.shown as GoldShown).question);
			})
		);
		data.forEach((raw, i) => {
			const n = i + 1;
			const at = (field: string, reason: string) =>
				problems.push(`Record ${n}: ${field} ${reason}.`);
			if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
				problems.push(`Record ${n} must be a JSON object.`);
				return;
			}
			const parsed = goldRecordSchema.safeParse(raw);
			if (!parsed.success) {
				for (const issue of parsed.error.issues)
					at(String(issue.path[0] ?? '(record)'), issue.message);
				return;
			}
			const g = parsed.data;
			const nul = [g.passage, g.explanation].some((s) => s?.includes('\u0000'));
			if (nul) at('passage or explanation', 'contains a NUL character');
			const item = validateQaRecord(g.item, i);
			if (!item.ok) {
				for (const e of item.errors) at(`item.${e.field}`, e.reason);
				return;
			}
			const shown = shownFields(item.record);
			const key = itemKey(shown.type, item.record.source.paragraph_id, shown.question);
			if (taken.has(key)) {
				at('item', 'is already a gold pair of the round');
				return;
			}
			if (keys.has(key)) {
				at('item', `repeats record ${keys.get(key)}`);
				return;
			}
			keys.set(key, n);
			if (nul) return;
			rows.push({
				record: item.record,
				shown,
				passage: g.passage?.trim() || null,
				verdict: g.verdict,
				relevance: g.relevance,
				explanation: g.explanation,
				createdBy: actorId
			});
		});
		if (problems.length)
			throw new DomainError(
				'invalid',
				`Nothing was imported: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the gold file.`,
				{ problems: problems.slice(0, 200) }
			);
		for (let i = 0; i < rows.length; i += 500)
			await tx.insert(reviewGold).values(rows.slice(i, i + 500));
		await recordAudit(tx, {
			actorId,
			action: 'review_gold.import',
			objectType: 'reviewer_round',
			objectId: 1,
			after: { imported: rows.length }
		});
		return { imported: rows.length };
	});
}

/** Takes a gold pair out of the round: no longer asked; its answers and attempts stay. */
export async function retireReviewGold(db: Db, goldId: number, actorId: string, now = new Date()) {
	await db.transaction(async (tx) => {
		const [row] = await tx
			.update(reviewGold)
			.set({ retiredAt: now })
			.where(and(eq(reviewGold.id, goldId), isNull(reviewGold.retiredAt)))
			.returning({ id: reviewGold.id });
		if (!row) throw new DomainError('not_found', 'No such gold pair in the round.');
		await recordAudit(tx, {
			actorId,
			action: 'review_gold.retire',
			objectType: 'review_gold',
			objectId: goldId
		});
	});
}

/** The round's live gold pairs, in import order, with how many reviewers answered each. */
export async function listReviewGold(db: Db) {
	const rows = await db
		.select({
			id: reviewGold.id,
			shown: reviewGold.shown,
			verdict: reviewGold.verdict,
			relevance: reviewGold.relevance,
			explanation: reviewGold.explanation,
			hasPassage: sql<boolean>`${reviewGold.passage} is not null`,
			answers: sql<number>`(select count(*)::int from review_gold_answer a where a.gold_id = ${reviewGold.id})`
		})
		.from(reviewGold)
		.where(isNull(reviewGold.retiredAt))
		.orderBy(asc(reviewGold.id));
	return rows.map((r) => ({
		...r,
		question: (r.shown as GoldShown).question,
		type: (r.shown as GoldShown).type,
		answers: Number(r.answers)
	}));
}

export interface ReviewAttempt {
	attempt: number;
	score: number;
	questions: number;
	passed: boolean;
	finishedAt: Date;
}

/** The pair a reviewer is to answer next: its fields, its source and passage. */
export interface GoldQuestion {
	goldId: number;
	shown: GoldShown;
	source: { isbn: string | null; page: number | null; paragraphId: string | null };
	passage: string | null;
}

/** Where a reviewer stands in the round. */
export interface ReviewerRoundStatus extends ReviewerRoundSettings {
	/** Of `maxAttempts` (the round's plus these), the attempts organisers granted this reviewer. */
	granted: number;
	attempts: ReviewAttempt[];
	passed: boolean;
	attemptsLeft: number;
	/** Pairs answered in the attempt in progress. */
	inAttempt: number;
	/** The next pair, unless passed, out of attempts, or out of pairs they have not had. */
	next: GoldQuestion | null;
	/** Why there is no next pair. */
	blocked: null | 'passed' | 'attempts_used' | 'no_questions';
}

async function attemptsOf(db: Db, reviewerId: string): Promise<ReviewAttempt[]> {
	return db
		.select({
			attempt: reviewQualificationAttempt.attempt,
			score: reviewQualificationAttempt.score,
			questions: reviewQualificationAttempt.questions,
			passed: reviewQualificationAttempt.passed,
			finishedAt: reviewQualificationAttempt.finishedAt
		})
		.from(reviewQualificationAttempt)
		.where(eq(reviewQualificationAttempt.reviewerId, reviewerId))
		.orderBy(asc(reviewQualificationAttempt.attempt));
}

/**
 * The reviewer's next pair: live, never answered by them in the round nor met as a hidden check,
 * in their own seeded order.
 */
async function nextGold(db: Db, reviewerId: string): Promise<GoldQuestion | null> {
	const [row] = rowsOf<{
		id: number;
		shown: GoldShown;
		source: { isbn?: string; page?: number; paragraph_id?: string } | null;
		passage: string | null;
	}>(
		await db.execute(sql`select g.id, g.shown, g.record -> 'source' as source, g.passage
			from review_gold g
			where g.retired_at is null and not exists (select 1 from review_gold_answer a
				where a.gold_id = g.id and a.reviewer_id = ${reviewerId})
				and not exists (select 1 from review_check c
					where c.gold_id = g.id and c.reviewer_id = ${reviewerId})
			order by md5(${reviewerId} || ':' || g.id::text) collate "C", g.id limit 1`)
	);
	if (!row) return null;
	return {
		goldId: Number(row.id),
		shown: row.shown,
		source: {
			isbn: row.source?.isbn || null,
			page: typeof row.source?.page === 'number' ? row.source.page : null,
			paragraphId: row.source?.paragraph_id ?? null
		},
		passage: row.passage
	};
}

export async function reviewerRoundStatus(
	db: Db,
	reviewerId: string
): Promise<ReviewerRoundStatus> {
	const settings = await reviewerRoundSettings(db);
	const granted = await grantedReviewerAttempts(db, reviewerId);
	settings.maxAttempts += granted;
	const attempts = await attemptsOf(db, reviewerId);
	const passed = attempts.some((a) => a.passed);
	const [{ n }] = rowsOf<{ n: number }>(
		await db.execute(sql`select count(*)::int as n from review_gold_answer
			where reviewer_id = ${reviewerId} and attempt = ${attempts.length + 1}`)
	);
	const attemptsLeft = passed ? 0 : Math.max(0, settings.maxAttempts - attempts.length);
	const next = passed || attemptsLeft === 0 ? null : await nextGold(db, reviewerId);
	return {
		...settings,
		granted,
		attempts,
		passed,
		attemptsLeft,
		inAttempt: passed ? 0 : Number(n),
		next,
		blocked: passed ? 'passed' : attemptsLeft === 0 ? 'attempts_used' : next ? null : 'no_questions'
	};
}

export const reviewGoldAnswerSchema = z.object({
	goldId: z.number().int().positive(),
	verdict: z.enum(VERDICTS, { message: 'Choose a verdict.' }),
	relevance: z
		.number({ message: 'Choose a relevance from 1 to 5.' })
		.int()
		.min(1, 'Choose a relevance from 1 to 5.')
		.max(5, 'Choose a relevance from 1 to 5.'),
	timeOnTaskMs: z.number().int().min(0).max(86_400_000).nullish()
});

/**
 * Records a reviewer's answer to the pair they were given, and scores the attempt it completes,
 * in one transaction (one answer at a time per reviewer). A second submission of an answered pair
 * changes nothing. Refused when the pair is not the one the reviewer is to answer now (passed,
 * out of attempts, or another pair).
 */
export async function answerReviewGold(
	db: Db,
	reviewerId: string,
	input: z.input<typeof reviewGoldAnswerSchema>,
	now = new Date()
): Promise<{ finished: ReviewAttempt | null }> {
	const parsed = reviewGoldAnswerSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	return db.transaction(async (tx) => {
		await tx.execute(
			sql`select pg_advisory_xact_lock(hashtext(${'reviewer-round:' + reviewerId}))`
		);
		const [already] = await tx
			.select({ goldId: reviewGoldAnswer.goldId })
			.from(reviewGoldAnswer)
			.where(
				and(eq(reviewGoldAnswer.goldId, v.goldId), eq(reviewGoldAnswer.reviewerId, reviewerId))
			);
		if (already) return { finished: null };
		const status = await reviewerRoundStatus(tx, reviewerId);
		if (status.blocked === 'passed')
			throw new DomainError('conflict', 'You have passed the qualification round already.');
		if (status.blocked === 'attempts_used')
			throw new DomainError('conflict', 'You have used every attempt at the qualification round.');
		if (!status.next || status.next.goldId !== v.goldId)
			throw new DomainError(
				'conflict',
				'This is not the question you were given: reload the page to see it.'
			);
		const attempt = status.attempts.length + 1;
		await tx.insert(reviewGoldAnswer).values({
			goldId: v.goldId,
			reviewerId,
			attempt,
			verdict: v.verdict,
			relevance: v.relevance,
			timeOnTaskMs: v.timeOnTaskMs ?? null,
			answeredAt: now
		});
		if (status.inAttempt + 1 < status.questionsPerAttempt) return { finished: null };
		// The attempt is complete: labels matched (verdict, relevance) over labels asked.
		const [{ matched, total, questions }] = rowsOf<{
			matched: number;
			total: number;
			questions: number;
		}>(
			await tx.execute(sql`select
				sum((a.verdict = g.verdict)::int + (a.relevance = g.relevance)::int)::int as matched,
				(2 * count(*))::int as total, count(*)::int as questions
				from review_gold_answer a join review_gold g on g.id = a.gold_id
				where a.reviewer_id = ${reviewerId} and a.attempt = ${attempt}`)
		);
		const score = Number(matched) / Number(total);
		const finished: ReviewAttempt = {
			attempt,
			score,
			questions: Number(questions),
			// Compared in whole labels, so 0.75 of 4 labels is 3, not a rounding error away.
			passed: Number(matched) >= Math.ceil(status.passMark * Number(total) - 1e-9),
			finishedAt: now
		};
		await tx.insert(reviewQualificationAttempt).values({ reviewerId, ...finished });
		await recordAudit(tx, {
			actorId: reviewerId,
			action: 'reviewer_round.attempt',
			objectType: 'reviewer_round',
			objectId: 1,
			after: { attempt, score, passed: finished.passed, questions: finished.questions }
		});
		return { finished };
	});
}

/** What a reviewer sees after answering a pair: theirs beside the gold, and why. */
export interface ReviewGoldFeedback {
	goldId: number;
	shown: GoldShown;
	given: { verdict: Verdict; relevance: number };
	gold: { verdict: Verdict; relevance: number };
	explanation: string;
	attempt: number;
	/** The result of the pair's attempt, once the attempt is complete. */
	finished: ReviewAttempt | null;
}

/** The feedback on a pair the reviewer answered; null for any other pair. */
export async function reviewGoldFeedback(
	db: Db,
	reviewerId: string,
	goldId: number
): Promise<ReviewGoldFeedback | null> {
	const [row] = await db
		.select({
			shown: reviewGold.shown,
			goldVerdict: reviewGold.verdict,
			goldRelevance: reviewGold.relevance,
			explanation: reviewGold.explanation,
			verdict: reviewGoldAnswer.verdict,
			relevance: reviewGoldAnswer.relevance,
			attempt: reviewGoldAnswer.attempt
		})
		.from(reviewGoldAnswer)
		.innerJoin(reviewGold, eq(reviewGold.id, reviewGoldAnswer.goldId))
		.where(and(eq(reviewGoldAnswer.goldId, goldId), eq(reviewGoldAnswer.reviewerId, reviewerId)));
	if (!row) return null;
	const attempts = await attemptsOf(db, reviewerId);
	const finished = attempts.find((a) => a.attempt === row.attempt) ?? null;
	return {
		goldId,
		shown: row.shown as GoldShown,
		given: { verdict: row.verdict, relevance: row.relevance },
		gold: { verdict: row.goldVerdict, relevance: row.goldRelevance },
		explanation: row.explanation,
		attempt: row.attempt,
		finished
	};
}

/** Every reviewer who has answered a pair of the round, by pseudonym, with their attempts. */
export async function reviewerRoundResults(db: Db) {
	const settings = await reviewerRoundSettings(db);
	const reviewers = rowsOf<{ id: string; pseudonym: string; display_name: string; n: number }>(
		await db.execute(sql`select u.id, u.pseudonym, u.display_name, count(*)::int as n
			from review_gold_answer a join "user" u on u.id = a.reviewer_id
			group by u.id, u.pseudonym, u.display_name order by u.pseudonym`)
	);
	const out = [];
	for (const r of reviewers) {
		const attempts = await attemptsOf(db, r.id);
		const passed = attempts.some((a) => a.passed);
		const granted = await grantedReviewerAttempts(db, r.id);
		out.push({
			raterId: r.id,
			pseudonym: r.pseudonym,
			displayName: r.display_name,
			submitted: Number(r.n),
			attempts,
			passed,
			granted,
			attemptsLeft: passed ? 0 : Math.max(0, settings.maxAttempts + granted - attempts.length)
		});
	}
	return out;
}

/** The attempts organisers granted a reviewer at the round beyond its `maxAttempts`. */
export async function grantedReviewerAttempts(db: Db, reviewerId: string) {
	const [{ n }] = rowsOf<{ n: number }>(
		await db.execute(sql`select coalesce(sum(attempts), 0)::int as n from qualification_grant
			where study_id is null and rater_id = ${reviewerId}`)
	);
	return Number(n);
}

export const reviewerGrantSchema = z.object({
	raterId: z.string().min(1, 'Choose the reviewer.'),
	...grantFields
});

/**
 * Adds attempts at the reviewers' round for one reviewer who has not passed it, in one
 * transaction with its audit event. Refused when they passed, or when the round has too few live
 * pairs they have not answered for the attempts they would then have left.
 */
export async function grantReviewerAttempts(
	db: Db,
	input: z.input<typeof reviewerGrantSchema>,
	actorId: string,
	now = new Date()
): Promise<ReviewerRoundStatus> {
	const parsed = reviewerGrantSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	return db.transaction(async (tx) => {
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'reviewer-round:' + v.raterId}))`);
		const [known] = rowsOf<{ id: string }>(
			await tx.execute(sql`select id from "user" where id = ${v.raterId}`)
		);
		if (!known) throw new DomainError('not_found', 'No such reviewer.', { field: 'raterId' });
		const status = await reviewerRoundStatus(tx, v.raterId);
		if (status.passed)
			throw new DomainError('conflict', 'This reviewer has passed the round already.', {
				field: 'raterId'
			});
		const [{ fresh }] = rowsOf<{ fresh: number }>(
			await tx.execute(sql`select count(*)::int as fresh from review_gold g
				where g.retired_at is null and not exists (select 1 from review_gold_answer a
					where a.gold_id = g.id and a.reviewer_id = ${v.raterId})`)
		);
		const left = status.attemptsLeft + v.attempts;
		const needed = left * status.questionsPerAttempt - status.inAttempt;
		if (Number(fresh) < needed)
			throw new DomainError(
				'invalid',
				`This reviewer has not answered ${fresh} of the round's gold pairs; ${left} attempt${left === 1 ? '' : 's'} of ${status.questionsPerAttempt} would need ${needed}. Import gold pairs first, or grant fewer attempts.`,
				{ field: 'attempts' }
			);
		await recordGrant(tx, { ...v, studyId: null, actorId, now }, status);
		return reviewerRoundStatus(tx, v.raterId);
	});
}

/** A reviewer's hidden checks in live review: a gold accuracy over two labels a check. */
export interface ReviewCheckResult extends GoldAccuracy {
	/** matched / total (labels: verdict and relevance, 2 per check). */
	accuracy: number;
	/** Notes and dispute reasons the reviewer wrote on gold pairs (worth reading: a gold may be wrong). */
	notes: { goldId: number; feedback: string | null; dispute: string | null }[];
}

/** Each reviewer's accuracy on the hidden gold checks of the review queue, as of now. */
export async function reviewCheckResults(db: Db): Promise<ReviewCheckResult[]> {
	const settings = await reviewerRoundSettings(db);
	const rows = rowsOf<{
		id: string;
		pseudonym: string;
		display_name: string;
		checks: number;
		matched: number;
		notes: { goldId: number; feedback: string | null; dispute: string | null }[] | string | null;
	}>(
		await db.execute(sql`select u.id, u.pseudonym, u.display_name, count(*)::int as checks,
				sum(c.matched)::int as matched,
				json_agg(json_build_object('goldId', c.gold_id, 'feedback', c.feedback,
					'dispute', c.dispute_reason) order by c.id)
					filter (where c.feedback is not null or c.dispute_reason is not null) as notes
			from review_check c join "user" u on u.id = c.reviewer_id
			where c.state = 'done'
			group by u.id, u.pseudonym, u.display_name order by u.pseudonym`)
	);
	return rows.map((r) => {
		const checks = Number(r.checks);
		const matched = Number(r.matched);
		const total = 2 * checks;
		const accuracy = matched / total;
		const { low, high } = wilson(matched, total);
		const notes = typeof r.notes === 'string' ? JSON.parse(r.notes) : (r.notes ?? []);
		return {
			raterId: r.id,
			pseudonym: r.pseudonym,
			displayName: r.display_name,
			checks,
			matched,
			total,
			accuracy,
			interval: [low, high] as [number, number],
			flagged: checks >= MIN_CHECKS_TO_FLAG && accuracy < settings.passMark,
			notes
		};
	});
}

/**
 * The hidden checks as gold scores for the rater-quality report: one per answered check, two
 * labels each (`assignmentId` and `questionId` are the check's and the gold pair's ids).
 */
export async function reviewCheckScores(db: Db): Promise<GoldScore[]> {
	const rows = rowsOf<{
		id: number;
		gold_id: number;
		reviewer_id: string;
		submitted_at: Date | string;
		matched: number;
	}>(
		await db.execute(sql`select id, gold_id, reviewer_id, submitted_at, matched from review_check
			where state = 'done' order by id`)
	);
	return rows.map((r) => ({
		assignmentId: Number(r.id),
		questionId: Number(r.gold_id),
		raterId: r.reviewer_id,
		submittedAt: new Date(r.submitted_at),
		matched: Number(r.matched),
		total: 2,
		lines: []
	}));
}
