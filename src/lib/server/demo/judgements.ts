// Demo judgements: reviews, adjudications, rankings and a scoring run over the demo content, so a
// newcomer sees real agreement figures at first start. Every judgement goes through the domain
// functions the pages use; what each reviewer or physician decides is derived from fixed seeds
// and happens at fixed synthetic times, so the same judgements are stored on every start.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Verdict } from '../../constants';
import type { Db } from '../db/client';
import {
	assignment,
	assignmentCandidate,
	candidate,
	dataset,
	model,
	qaItem,
	reviewTask
} from '../db/schema';
import { sha256Hex } from '../ids';
import { claimNext as claimRanking } from '../domain/studies/queue';
import { submitRanking } from '../domain/studies/designs/ranking/rankings';
import { changeStudyState, createStudy } from '../domain/studies/studies';
import { claimNext as claimReview } from '../domain/review/queue';
import { submitReview } from '../domain/review/reviews';
import { createRun, executeRun } from '../domain/scoring-runs/runs';
import { adjudicate } from '../domain/verification/adjudication';
import { setSecondaryShare } from '../domain/verification/settings';
import { DEMO_MODELS, DEMO_QUALITY } from './demo-data';
import { silentLog, type StepLog } from '../startup-log';
import { seedEvidenceStudy } from './evidence-study';
import { seedPairwiseStudy } from './pairwise-study';
import { seedRubricStudy } from './rubric-study';
import { seedQualityStudies } from './quality-study';

/** Who judges in the demo: one organiser, two reviewers, three physicians. */
export interface DemoJudges {
	organiser: string;
	reviewers: [string, string];
	physicians: [string, string, string];
}

/** Items left without a primary review, so the demo reviewers still have work. */
export const DEMO_ITEMS_LEFT = 3;
/** The finished (closed) study every question of which all three physicians ranked. */
export const DEMO_RANKED_STUDY = 'Demo study: all questions, three physicians';
/** The open study left for the demo physicians to work on. */
export const DEMO_OPEN_STUDY = 'Demo study: reasoning questions (open)';

const SAMPLE_SEED = 'demo-sample';
const START = Date.parse('2026-01-05T09:00:00Z');
const MINUTE = 60_000;

/** A number in [0, 1) fixed by its key: the demo's only source of chance. */
function unit(...key: (string | number)[]): number {
	return parseInt(sha256Hex(key.join('|')).slice(0, 12), 16) / 2 ** 48;
}

function primaryJudgement(itemKey: string): { verdict: Verdict; relevance: number } {
	const v = unit('primary verdict', itemKey);
	const verdict: Verdict = v < 0.7 ? 'correct' : v < 0.87 ? 'incorrect' : 'cannot_tell';
	return { verdict, relevance: 2 + Math.floor(unit('primary relevance', itemKey) * 4) };
}

/**
 * The second reviewer mostly agrees: the same verdict and a relevance at most one step away; a
 * fixed few of the double-reviewed items (by their position among them) differ on the verdict or
 * by two relevance steps, which sends them to adjudication.
 */
function secondaryJudgement(
	itemKey: string,
	primary: { verdict: Verdict; relevance: number },
	position: number
): { verdict: Verdict; relevance: number } {
	const step = unit('secondary relevance', itemKey) < 0.5 ? -1 : 1;
	const near = Math.min(
		5,
		Math.max(1, primary.relevance + (unit('drift', itemKey) < 0.6 ? 0 : step))
	);
	if (position === 1 || position === 4 || position === 7) {
		const verdict: Verdict = primary.verdict === 'correct' ? 'incorrect' : 'correct';
		return { verdict, relevance: near };
	}
	if (position === 5)
		return {
			verdict: primary.verdict,
			relevance: primary.relevance >= 4 ? primary.relevance - 2 : primary.relevance + 2
		};
	return { verdict: primary.verdict, relevance: near };
}

async function pendingTasks(db: Db, round: 'primary' | 'secondary', notFor?: string) {
	const [{ n }] = await db
		.select({ n: count() })
		.from(reviewTask)
		.where(
			and(
				eq(reviewTask.round, round),
				eq(reviewTask.state, 'pending'),
				notFor ? sql`${reviewTask.excludedUserId} is distinct from ${notFor}` : sql`true`
			)
		);
	return n;
}

/**
 * Primary reviews of all items but DEMO_ITEMS_LEFT, secondary reviews of every sampled item
 * reviewed (by the other reviewer), taken from the review queue in turns; then two of the
 * disagreements adjudicated and the rest left in the adjudication queue.
 */
async function seedReviews(db: Db, judges: DemoJudges): Promise<void> {
	const [ds] = await db.select({ id: dataset.id }).from(dataset).orderBy(asc(dataset.id)).limit(1);
	await setSecondaryShare(db, judges.organiser, {
		datasetId: ds.id,
		share: 0.45,
		seed: SAMPLE_SEED
	});
	const keys = new Map(
		(await db.select({ id: qaItem.id, key: qaItem.itemKey }).from(qaItem)).map((i) => [i.id, i.key])
	);
	const primaries = new Map<number, { verdict: Verdict; relevance: number }>();
	let secondaries = 0;
	let step = 0;
	for (let idle = 0; idle < 2; step++) {
		const reviewer = judges.reviewers[step % 2];
		// Fresh primary work is taken only while more than DEMO_ITEMS_LEFT items wait for it.
		const wantsPrimary = (await pendingTasks(db, 'primary')) > DEMO_ITEMS_LEFT;
		if (!wantsPrimary && (await pendingTasks(db, 'secondary', reviewer)) === 0) {
			idle++;
			continue;
		}
		idle = 0;
		const now = new Date(START + step * 7 * MINUTE);
		const lease = await claimReview(db, reviewer, now);
		if (!lease) break;
		const key = keys.get(lease.itemId)!;
		let judgement: { verdict: Verdict; relevance: number };
		if (lease.round === 'primary') {
			judgement = primaryJudgement(key);
			primaries.set(lease.itemId, judgement);
		} else {
			judgement = secondaryJudgement(key, primaries.get(lease.itemId)!, ++secondaries);
		}
		await submitReview(
			db,
			reviewer,
			{
				taskId: lease.taskId,
				key: lease.leaseToken,
				...judgement,
				startedAt: now.getTime() + 30_000
			},
			new Date(now.getTime() + (2 + Math.floor(unit('time', key) * 4)) * MINUTE)
		);
	}
	const waiting = await db
		.select({ id: qaItem.id })
		.from(qaItem)
		.where(eq(qaItem.status, 'awaiting_adjudication'))
		.orderBy(asc(qaItem.id));
	for (const [i, { id }] of waiting.slice(0, 2).entries())
		await adjudicate(db, judges.organiser, {
			itemId: id,
			verdict: i === 0 ? 'correct' : 'cannot_tell',
			relevance: 4,
			reason:
				i === 0
					? 'The passage supports the answer; the second reviewer misread the question.'
					: 'The passage does not settle the answer either way.'
		});
}

/**
 * One physician's ranking of one assignment: each candidate's quality for this question (shared
 * by all physicians) plus the physician's own noise, sorted best first, tagged by where the
 * perceived quality falls (so tags never contradict ranks). The noise makes the physicians
 * mostly agree, with some swaps.
 */
async function rankAssignment(db: Db, physician: string, publicId: string, now: Date) {
	const rows = await db
		.select({
			publicId: assignmentCandidate.publicId,
			question: candidate.studyQuestionId,
			isReference: candidate.isReference,
			model: model.name
		})
		.from(assignmentCandidate)
		.innerJoin(assignment, eq(assignment.id, assignmentCandidate.assignmentId))
		.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(assignment.publicId, publicId))
		.orderBy(asc(assignmentCandidate.position));
	const perceived = rows.map((r) => {
		const label = r.isReference ? 'reference' : r.model!;
		const question = DEMO_QUALITY[label] + (unit('question', r.question, label) - 0.5) * 0.9;
		return {
			...r,
			score: question + (unit('physician', physician, r.question, label) - 0.5) * 0.8
		};
	});
	const order = [...perceived].sort((a, b) => b.score - a.score);
	await submitRanking(
		db,
		physician,
		{
			assignmentId: publicId,
			idempotencyKey: `demo-ranking-${publicId}`,
			timeOnTaskMs: 60_000 + Math.floor(unit('time', publicId) * 120_000),
			entries: order.map((c, i) => ({
				candidateId: c.publicId,
				rank: i + 1,
				tag: c.score > 0.95 ? 'good' : c.score > 0.35 ? 'okay' : 'bad'
			}))
		},
		now
	);
}

/**
 * A closed study over every demo question ranked fully by all three physicians, and an open
 * study over the reasoning questions that nobody has ranked yet.
 */
async function seedRankings(db: Db, judges: DemoJudges): Promise<void> {
	const models = await db
		.select({ id: model.id })
		.from(model)
		.where(inArray(model.name, [...DEMO_MODELS]))
		.orderBy(asc(model.id));
	const modelIds = models.map((m) => m.id);
	const study = await createStudy(
		db,
		{
			name: DEMO_RANKED_STUDY,
			instructions: 'Rank the answers from best to worst and tag each one.',
			selection: { types: [] },
			modelIds,
			ratersPerQuestion: 3
		},
		judges.organiser
	);
	// The demo answers differ in form on purpose; the organiser confirms the blinding audit.
	await changeStudyState(db, study.id, 'open', judges.organiser, {
		confirm: true,
		now: new Date(START + 2 * 24 * 60 * MINUTE)
	});
	for (const [p, physician] of judges.physicians.entries()) {
		let now = START + (3 + p) * 24 * 60 * MINUTE;
		for (;;) {
			const claim = await claimRanking(db, study.id, physician, new Date(now));
			if (claim.status !== 'assigned') break;
			now += (2 + Math.floor(unit('pace', physician, now) * 3)) * MINUTE;
			await rankAssignment(db, physician, claim.publicId, new Date(now));
		}
	}
	await changeStudyState(db, study.id, 'close', judges.organiser, {
		now: new Date(START + 7 * 24 * 60 * MINUTE)
	});
	const open = await createStudy(
		db,
		{
			name: DEMO_OPEN_STUDY,
			instructions: 'Rank the answers from best to worst and tag each one.',
			selection: { types: ['short_inverse', 'multi_hop', 'multi_hop_inverse'] },
			modelIds,
			ratersPerQuestion: 2
		},
		judges.organiser
	);
	await changeStudyState(db, open.id, 'open', judges.organiser, {
		confirm: true,
		now: new Date(START + 7 * 24 * 60 * MINUTE)
	});
}

/**
 * Stores demo judgements over the imported demo content (see importDemoContent): reviews in
 * both rounds with some disagreements and adjudications, a finished ranking study, an open
 * one, an open rubric study of patient questions with an automatic judge, an open pairwise study
 * with most pairs judged, an open evidence study with most answers assessed, and an official scoring run (hash:384 embedder) of the demo models.
 */
export async function seedDemoJudgements(
	db: Db,
	judges: DemoJudges,
	log: StepLog = silentLog
): Promise<void> {
	await log.step('demo: reviews', () => seedReviews(db, judges));
	// The rubric and pairwise studies first: the agreement page opens on the newest study with
	// agreement figures, which stays the finished ranking study.
	// Before the other studies too: their ids stay the newest.
	await log.step('demo: qualification round and gold checks', () => seedQualityStudies(db, judges));
	await log.step('demo: rubric study', () => seedRubricStudy(db, judges));
	await log.step('demo: pairwise study', () => seedPairwiseStudy(db, judges));
	await log.step('demo: evidence study', () => seedEvidenceStudy(db, judges));
	await log.step('demo: rankings', () => seedRankings(db, judges));
	await log.step('demo: scoring run', async () => {
		const models = await db
			.select({ id: model.id })
			.from(model)
			.where(inArray(model.name, [...DEMO_MODELS]));
		const run = await createRun(
			db,
			{ modelIds: models.map((m) => m.id), mode: 'official', embedder: 'hash:384' },
			judges.organiser
		);
		const state = await executeRun(db, run.id);
		if (state !== 'done') throw new Error(`The demo scoring run ended ${state}.`);
	});
}
