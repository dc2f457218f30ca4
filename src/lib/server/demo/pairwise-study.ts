// The demo's pairwise study: every pair of the three demo models and the reference on each demo
// QA item, k = 2, opened, with about 70 % of the pairs' judgements made by the demo physicians and
// the rest left for them, so the pairwise report (leaderboard, matrix, biases, agreement) shows
// figures at first start. The physicians prefer answers by DEMO_QUALITY, the scale the demo
// ranking study is ranked by, so the two leaderboards roughly agree. Everything goes through the
// domain functions the pages use; every preference is fixed by its key.
import { asc, eq, inArray } from 'drizzle-orm';
import type { PreferenceOutcome, PreferenceStrength } from '../../constants';
import type { Db } from '../db/client';
import { assignment, assignmentCandidate, candidate, model, studyQuestion } from '../db/schema';
import { sha256Hex } from '../ids';
import { claimNext, type ClaimResult } from '../domain/studies/queue';
import { changeStudyState, createStudy } from '../domain/studies/studies';
import { submitPreference } from '../domain/studies/designs/pairwise/submit';
import { DEMO_MODELS, DEMO_QUALITY } from './demo-data';

/** The demo's pairwise study, open, with most pairs judged by two physicians each. */
export const DEMO_PAIRWISE_STUDY = 'Demo pairwise study: all questions, two answers at a time';
/** The share of the study's judgements (pairs × k) the demo physicians make. */
export const DEMO_PAIRWISE_JUDGED = 0.7;

const START = Date.parse('2026-01-19T09:00:00Z');
const MINUTE = 60_000;

/** A number in [0, 1) fixed by its key. */
function unit(...key: (string | number)[]): number {
	return parseInt(sha256Hex(key.join('|')).slice(0, 12), 16) / 2 ** 48;
}

/** The QA item and the source (model name or `reference`) of each answer shown, left first. */
async function shownPair(db: Db, publicId: string) {
	const rows = await db
		.select({
			itemId: studyQuestion.itemId,
			model: model.name,
			isReference: candidate.isReference
		})
		.from(assignmentCandidate)
		.innerJoin(assignment, eq(assignment.id, assignmentCandidate.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(assignment.publicId, publicId))
		.orderBy(asc(assignmentCandidate.position));
	return {
		itemId: rows[0].itemId!,
		sources: rows.map((r) => (r.isReference ? 'reference' : r.model!))
	};
}

/**
 * A physician's preference between two answers of a QA item: each answer's quality for this item
 * (DEMO_QUALITY plus the item's own noise, shared by every physician) plus the physician's noise;
 * close answers are a tie, both good or both bad by their level, and a clear gap is "clearly".
 */
export function demoPreference(
	physician: string,
	itemId: number,
	left: string,
	right: string
): { outcome: PreferenceOutcome; strength: PreferenceStrength | null } {
	const perceived = (source: string) =>
		DEMO_QUALITY[source] +
		(unit('question', itemId, source) - 0.5) * 0.9 +
		(unit('physician', physician, itemId, source) - 0.5) * 0.8;
	const a = perceived(left);
	const b = perceived(right);
	const gap = Math.abs(a - b);
	if (gap < 0.15) return { outcome: (a + b) / 2 > 0.6 ? 'tie_good' : 'tie_bad', strength: null };
	return { outcome: a > b ? 'left' : 'right', strength: gap > 0.6 ? 'clearly' : 'slightly' };
}

/**
 * Creates and opens the pairwise study over every demo QA item (the three demo models and the
 * reference, all six pairs, k = 2), then has the three demo physicians judge in turns, each
 * preference stored with the claim of the physician's next pair, until DEMO_PAIRWISE_JUDGED of
 * the judgements are made.
 */
export async function seedPairwiseStudy(
	db: Db,
	judges: { organiser: string; physicians: readonly string[] }
): Promise<void> {
	const models = await db
		.select({ id: model.id })
		.from(model)
		.where(inArray(model.name, [...DEMO_MODELS]))
		.orderBy(asc(model.id));
	const study = await createStudy(
		db,
		{
			name: DEMO_PAIRWISE_STUDY,
			design: 'pairwise',
			instructions:
				'Read both answers and choose the better one, or a tie: both good or both bad. Say how clearly, and why if you like.',
			selection: { types: [] },
			modelIds: models.map((m) => m.id),
			ratersPerQuestion: 2,
			pairing: 'all',
			pairSeed: 'demo-pairs'
		},
		judges.organiser
	);
	// The demo answers differ in form on purpose; the organiser confirms the blinding audit.
	await changeStudyState(db, study.id, 'open', judges.organiser, {
		confirm: true,
		now: new Date(START)
	});
	const units = await db
		.select({ id: studyQuestion.id })
		.from(studyQuestion)
		.where(eq(studyQuestion.studyId, study.id));
	let left = Math.round(units.length * 2 * DEMO_PAIRWISE_JUDGED);
	// One clock for all three: a claim sweeps the study's expired leases, so a physician whose
	// time ran ahead would return the others' pairs to the queue.
	let now = START + 60 * MINUTE;
	const current: ClaimResult[] = [];
	for (const physician of judges.physicians)
		current.push(await claimNext(db, study.id, physician, new Date(now)));
	// In turns, so each physician judges about a third and all three still have pairs to judge.
	for (let p = 0; left > 0 && current.some((c) => c.status === 'assigned'); p = (p + 1) % 3) {
		const claim = current[p];
		if (claim.status !== 'assigned') continue;
		const physician = judges.physicians[p];
		const shown = await shownPair(db, claim.publicId);
		const seconds = 40 + Math.floor(unit('time', physician, claim.publicId) * 80);
		now += seconds * 1000;
		const stored = await submitPreference(
			db,
			physician,
			study.id,
			{
				assignmentId: claim.publicId,
				idempotencyKey: `demo-${claim.publicId}`,
				timeOnTaskMs: seconds * 1000,
				...demoPreference(physician, shown.itemId, shown.sources[0], shown.sources[1]),
				aspects: {},
				reason: ''
			},
			{ next: true, now: new Date(now) }
		);
		current[p] = stored.next!;
		left--;
	}
}
