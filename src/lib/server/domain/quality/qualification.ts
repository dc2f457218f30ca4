// Qualification rounds and live gold accuracy. A qualification round is a study of purpose
// `qualification` whose questions are all gold: a rater works it in attempts of
// `questionsPerAttempt` questions, sees the gold answer after each, and passes an attempt whose
// gold accuracy reaches the pass mark; `maxAttempts`, plus the attempts an organiser granted the
// rater (./grants.ts), bounds the tries. A benchmark study that
// names the round admits only raters who passed it (study_claim, study.sql).
import { and, asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { assignment, qualificationAttempt, study, studyQuestion, user } from '../../db/schema';
import { wilson } from '../../../stats/blinding-attack';
import { responseLetter } from '../studies';
import { goldAnswers } from './gold';
import { goldShare, scoreAgainstGold, type GoldLine } from './gold-compare';
import { studyLabels } from './labels';

/** A rater's finished attempts at a round. */
export interface AttemptResult {
	attempt: number;
	score: number;
	questions: number;
	passed: boolean;
	finishedAt: Date;
}

/**
 * Records every attempt the rater has finished at a qualification round and not yet scored: their
 * submitted judgements in submission order, `questionsPerAttempt` to an attempt, each scored
 * against the gold. Idempotent; returns every recorded attempt.
 */
export async function scoreAttempts(
	db: Db,
	studyId: number,
	raterId: string
): Promise<AttemptResult[]> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s || s.purpose !== 'qualification') return [];
	const submitted = rowsOf<{ id: number }>(
		await db.execute(sql`select a.id from assignment a
			join study_question q on q.id = a.study_question_id
			where q.study_id = ${studyId} and a.physician_id = ${raterId} and a.state = 'submitted'
			order by a.submitted_at, a.id`)
	).map((r) => Number(r.id));
	const recorded = await attemptsOf(db, studyId, raterId);
	const allowed = s.maxAttempts + (await grantedAttempts(db, studyId, raterId));
	const finished = Math.min(Math.floor(submitted.length / s.questionsPerAttempt), allowed);
	if (finished > recorded.length) {
		const scores = scoreAgainstGold(
			await studyLabels(db, studyId, { questions: 'gold', raterIds: [raterId] }),
			await goldAnswers(db, studyId)
		);
		const byAssignment = new Map(scores.map((x) => [x.assignmentId, x]));
		const passedBefore = recorded.some((r) => r.passed);
		for (let attempt = recorded.length + 1; attempt <= finished && !passedBefore; attempt++) {
			const ids = submitted.slice(
				(attempt - 1) * s.questionsPerAttempt,
				attempt * s.questionsPerAttempt
			);
			const parts = ids.map((id) => byAssignment.get(id) ?? { matched: 0, total: 0 });
			const score = goldShare(parts) ?? 0;
			const passed = score >= s.passMark;
			await db
				.insert(qualificationAttempt)
				.values({ studyId, raterId, attempt, score, questions: ids.length, passed })
				.onConflictDoNothing();
			if (passed) break;
		}
	}
	return attemptsOf(db, studyId, raterId);
}

/** The attempts organisers granted a rater at a round beyond its `maxAttempts`. */
export async function grantedAttempts(db: Db, studyId: number, raterId: string) {
	const [{ n }] = rowsOf<{ n: number }>(
		await db.execute(sql`select coalesce(sum(attempts), 0)::int as n from qualification_grant
			where study_id = ${studyId} and rater_id = ${raterId}`)
	);
	return Number(n);
}

async function attemptsOf(db: Db, studyId: number, raterId: string): Promise<AttemptResult[]> {
	return db
		.select({
			attempt: qualificationAttempt.attempt,
			score: qualificationAttempt.score,
			questions: qualificationAttempt.questions,
			passed: qualificationAttempt.passed,
			finishedAt: qualificationAttempt.finishedAt
		})
		.from(qualificationAttempt)
		.where(
			and(eq(qualificationAttempt.studyId, studyId), eq(qualificationAttempt.raterId, raterId))
		)
		.orderBy(asc(qualificationAttempt.attempt));
}

/** Where a rater stands in a qualification round. */
export interface QualificationStatus {
	studyId: number;
	name: string;
	passMark: number;
	questionsPerAttempt: number;
	/** The attempts this rater may make in all: the round's, plus those granted to them. */
	maxAttempts: number;
	/** Of those, the attempts organisers granted this rater beyond the round's. */
	granted: number;
	attempts: AttemptResult[];
	passed: boolean;
	/** Attempts the rater may still start (0 once passed). */
	attemptsLeft: number;
	/** Questions of the attempt in progress already submitted. */
	inAttempt: number;
}

/** A rater's standing in a qualification round (scoring any attempt just finished). */
export async function qualificationStatus(
	db: Db,
	studyId: number,
	raterId: string
): Promise<QualificationStatus | null> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s || s.purpose !== 'qualification') return null;
	const attempts = await scoreAttempts(db, studyId, raterId);
	const [{ n }] = rowsOf<{ n: number }>(
		await db.execute(sql`select count(*)::int as n from assignment a
			join study_question q on q.id = a.study_question_id
			where q.study_id = ${studyId} and a.physician_id = ${raterId} and a.state = 'submitted'`)
	);
	const passed = attempts.some((a) => a.passed);
	const granted = await grantedAttempts(db, studyId, raterId);
	return {
		studyId,
		name: s.name,
		passMark: s.passMark,
		questionsPerAttempt: s.questionsPerAttempt,
		maxAttempts: s.maxAttempts + granted,
		granted,
		attempts,
		passed,
		attemptsLeft: passed ? 0 : Math.max(0, s.maxAttempts + granted - attempts.length),
		inAttempt: passed ? 0 : Number(n) - attempts.length * s.questionsPerAttempt
	};
}

/** What the rater sees after submitting a question of a qualification round. */
export interface AssignmentFeedback {
	studyId: number;
	studyName: string;
	lines: GoldLine[];
	matched: number;
	total: number;
	explanation: string;
	status: QualificationStatus;
}

/**
 * The gold answer beside the rater's own for their submitted assignment of a qualification round;
 * null when the assignment is not theirs, not submitted, or not of a qualification round (a hidden
 * gold check in live work never shows its gold).
 */
export async function assignmentFeedback(
	db: Db,
	publicId: string,
	raterId: string
): Promise<AssignmentFeedback | null> {
	const [row] = await db
		.select({
			id: assignment.id,
			questionId: assignment.studyQuestionId,
			state: assignment.state,
			studyId: study.id,
			studyName: study.name,
			purpose: study.purpose
		})
		.from(assignment)
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(study, eq(study.id, studyQuestion.studyId))
		.where(and(eq(assignment.publicId, publicId), eq(assignment.physicianId, raterId)));
	if (!row || row.state !== 'submitted' || row.purpose !== 'qualification') return null;
	const gold = await goldAnswers(db, row.studyId);
	const answer = gold.get(row.questionId);
	if (!answer) return null;
	const labels = (
		await studyLabels(db, row.studyId, { questions: 'gold', raterIds: [raterId] })
	).filter((l) => l.assignmentId === row.id);
	const [score] = scoreAgainstGold(
		labels.length > 0
			? labels
			: [
					{
						assignmentId: row.id,
						questionId: row.questionId,
						raterId,
						submittedAt: new Date(),
						timeOnTaskMs: null,
						key: '',
						label: ''
					}
				],
		gold
	);
	const status = (await qualificationStatus(db, row.studyId, raterId))!;
	return {
		studyId: row.studyId,
		studyName: row.studyName,
		lines: await asShown(db, row.id, score.lines),
		matched: score.matched,
		total: score.total,
		explanation: answer.explanation,
		status
	};
}

/** One rater's hidden gold checks in a benchmark study. */
export interface GoldAccuracy {
	raterId: string;
	pseudonym: string;
	displayName: string;
	/** Gold questions judged. */
	checks: number;
	matched: number;
	total: number;
	/** matched / total; null before the first check. */
	accuracy: number | null;
	/** 95 % Wilson interval of the accuracy over gold labels. */
	interval: [number, number];
	/** Below the study's pass mark (after at least `MIN_CHECKS_TO_FLAG` checks). */
	flagged: boolean;
}

/** Gold checks a rater must have met before a low accuracy flags them. */
export const MIN_CHECKS_TO_FLAG = 2;

/** Each rater's accuracy on a study's hidden gold checks, as of now (updated as they submit). */
export async function goldAccuracy(db: Db, studyId: number): Promise<GoldAccuracy[]> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s) return [];
	const scores = scoreAgainstGold(
		await studyLabels(db, studyId, { questions: 'gold' }),
		await goldAnswers(db, studyId)
	);
	const byRater = new Map<string, typeof scores>();
	for (const x of scores) byRater.set(x.raterId, [...(byRater.get(x.raterId) ?? []), x]);
	const names = await db
		.select({ id: user.id, pseudonym: user.pseudonym, displayName: user.displayName })
		.from(user);
	const nameOf = new Map(names.map((n) => [n.id, n]));
	return [...byRater]
		.map(([raterId, list]) => {
			const matched = list.reduce((n, x) => n + x.matched, 0);
			const total = list.reduce((n, x) => n + x.total, 0);
			const accuracy = total === 0 ? null : matched / total;
			const { low, high } = wilson(matched, total);
			return {
				raterId,
				pseudonym: nameOf.get(raterId)?.pseudonym ?? raterId,
				displayName: nameOf.get(raterId)?.displayName ?? raterId,
				checks: list.length,
				matched,
				total,
				accuracy,
				interval: [low, high] as [number, number],
				flagged: accuracy !== null && list.length >= MIN_CHECKS_TO_FLAG && accuracy < s.passMark
			};
		})
		.sort((a, b) => a.pseudonym.localeCompare(b.pseudonym));
}

/**
 * Where a rater goes after submitting an assignment: the gold answer's page when the assignment
 * belongs to a qualification round, else null (the design's screen goes on to the next question).
 */
export async function feedbackPath(db: Db, publicId: string, raterId: string) {
	const [row] = await db
		.select({ purpose: study.purpose })
		.from(assignment)
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(study, eq(study.id, studyQuestion.studyId))
		.where(and(eq(assignment.publicId, publicId), eq(assignment.physicianId, raterId)));
	return row?.purpose === 'qualification' ? `/rank/feedback/${publicId}` : null;
}

/**
 * Gold lines in the words of the rater's screen: an answer named as it is there — `Answer B` on a
 * pairwise screen, `Response B` on the others — never by its model: the feedback must not unblind
 * the answers it explains.
 */
export async function asShown(
	db: Db,
	assignmentId: number,
	lines: GoldLine[]
): Promise<GoldLine[]> {
	const shown = rowsOf<{ source: string; position: number; design: string }>(
		await db.execute(sql`select coalesce(m.name, 'reference') as source, ac.position, s.design
			from assignment_candidate ac join candidate c on c.id = ac.candidate_id
			join assignment a on a.id = ac.assignment_id
			join study_question q on q.id = a.study_question_id join study s on s.id = q.study_id
			left join model m on m.id = c.model_id where ac.assignment_id = ${assignmentId}`)
	);
	const letter = new Map(
		shown.map((s) => [
			s.source,
			`${s.design === 'pairwise' ? 'Answer' : 'Response'} ${responseLetter(Number(s.position))}`
		])
	);
	const word = (text: string | null) => (text === null ? null : (letter.get(text) ?? text));
	return lines.map((l) => {
		const slash = l.key.indexOf('/');
		const head = slash < 0 ? l.key : l.key.slice(0, slash);
		const key = letter.has(head) ? `${letter.get(head)}${l.key.slice(slash)}` : l.key;
		return { ...l, key, gold: word(l.gold)!, given: word(l.given) };
	});
}

/** One rater's standing in a qualification round, for the organiser. */
export interface RoundResult {
	raterId: string;
	pseudonym: string;
	displayName: string;
	/** Questions of the round submitted so far. */
	submitted: number;
	attempts: AttemptResult[];
	passed: boolean;
	/** Attempts organisers granted the rater beyond the round's own. */
	granted: number;
	/** Attempts still open to the rater (0 once passed). */
	attemptsLeft: number;
}

/**
 * Every rater who has worked a qualification round, with their attempts (scoring any attempt just
 * finished), by pseudonym; empty for a benchmark study.
 */
export async function roundResults(db: Db, studyId: number): Promise<RoundResult[]> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s || s.purpose !== 'qualification') return [];
	const raters = rowsOf<{ id: string; pseudonym: string; display_name: string; n: number }>(
		await db.execute(sql`select u.id, u.pseudonym, u.display_name, count(*)::int as n
			from assignment a join study_question q on q.id = a.study_question_id
			join "user" u on u.id = a.physician_id
			where q.study_id = ${studyId} and a.state = 'submitted'
			group by u.id, u.pseudonym, u.display_name order by u.pseudonym`)
	);
	const results: RoundResult[] = [];
	for (const r of raters) {
		const attempts = await scoreAttempts(db, studyId, r.id);
		const passed = attempts.some((a) => a.passed);
		const granted = await grantedAttempts(db, studyId, r.id);
		results.push({
			raterId: r.id,
			pseudonym: r.pseudonym,
			displayName: r.display_name,
			submitted: Number(r.n),
			attempts,
			passed,
			granted,
			attemptsLeft: passed ? 0 : Math.max(0, s.maxAttempts + granted - attempts.length)
		});
	}
	return results;
}
