// The demo's raters' quality: a qualification round for ranking (every question gold, three
// questions an attempt, pass mark 70 %) and a live ranking study that requires it, with one hidden
// gold check in every four claims. Two physicians work carefully; the third fails the round once,
// then passes, and in live work soon tags hastily (a few seconds a question, tags by
// chance) and misses gold checks — the dashboard has someone to flag. The reviewers' round gets
// seven gold QA pairs, not required, so a demo reviewer can try it and still review live pairs.
// Everything goes through the domain functions the pages use; every choice is fixed by its key.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Tag } from '../../constants';
import type { Db } from '../db/client';
import {
	assignment,
	assignmentCandidate,
	candidate,
	model,
	study,
	studyQuestion
} from '../db/schema';
import { sha256Hex } from '../ids';
import { claimNext } from '../domain/studies/queue';
import { submitRanking } from '../domain/studies/designs/ranking/rankings';
import { changeStudyState, createStudy } from '../domain/studies/studies';
import { importGold } from '../domain/quality/gold';
import { scoreAttempts } from '../domain/quality/qualification';
import { importReviewGold, updateReviewerRound } from '../domain/quality/review-round';
import { DEMO_MODELS, DEMO_QUALITY, DEMO_REVIEW_GOLD } from './demo-data';
/** Who works the round and the live study. */
interface Judges {
	organiser: string;
	physicians: readonly string[];
}

export const DEMO_ROUND = 'Demo qualification round: ranking';
export const DEMO_GOLD_STUDY = 'Demo ranking study with hidden gold checks';

const START = Date.parse('2026-02-02T09:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A number in [0, 1) fixed by its key. */
function unit(...key: (string | number)[]): number {
	return parseInt(sha256Hex(key.join('|')).slice(0, 12), 16) / 2 ** 48;
}

/** An answer's quality for a question: the model's demo quality plus the question's own noise. */
const quality = (question: number, source: string) =>
	DEMO_QUALITY[source] + (unit('gold question', question, source) - 0.5) * 0.6;
const tagOf = (score: number): Tag => (score > 0.95 ? 'good' : score > 0.35 ? 'okay' : 'bad');

/** The expected tag of every answer of each question: what its quality says. */
async function goldFile(db: Db, studyId: number, questionIds: number[]) {
	const rows = await db
		.select({ question: candidate.studyQuestionId, model: model.name })
		.from(candidate)
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(inArray(candidate.studyQuestionId, questionIds));
	return JSON.stringify(
		questionIds.map((q) => {
			const sources = rows.filter((r) => r.question === q).map((r) => r.model ?? 'reference');
			const labels = Object.fromEntries(sources.map((s) => [`${s}/tag`, tagOf(quality(q, s))]));
			const best = [...sources].sort((a, b) => quality(q, b) - quality(q, a))[0];
			return {
				question_id: q,
				labels,
				explanation: `The passage settles this question; the ${best === 'reference' ? 'reference answer' : 'strongest answer'} states it fully, the weakest leaves out what the passage requires.`
			};
		})
	);
}

/** How a physician works: carefully, or hastily (tags by chance, a few seconds a question). */
type Manner = 'careful' | 'hasty';

// `who` keys the physician's draws by their place among the demo's physicians, not by their user
// id (new at each seeding): every seeding makes the same judgements, and the hasty physician's
// chance tags fail the gold checks every time.
async function rank(
	db: Db,
	physician: string,
	who: string,
	publicId: string,
	manner: Manner,
	now: Date
) {
	const rows = await db
		.select({
			publicId: assignmentCandidate.publicId,
			question: candidate.studyQuestionId,
			model: model.name
		})
		.from(assignmentCandidate)
		.innerJoin(assignment, eq(assignment.id, assignmentCandidate.assignmentId))
		.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(assignment.publicId, publicId))
		.orderBy(asc(assignmentCandidate.position));
	const seen = rows.map((r) => {
		const source = r.model ?? 'reference';
		const noise = (unit('demo gold noise', who, r.question, source) - 0.5) * 0.1;
		// Hasty: tags by chance (fixed by the key, not by where the answer was shown, so every
		// seeding of the demo makes the same judgements).
		const hasty = unit('hasty', who, r.question, source) * 1.5;
		return { ...r, score: manner === 'careful' ? quality(r.question, source) + noise : hasty };
	});
	const order = [...seen].sort((a, b) => b.score - a.score);
	await submitRanking(
		db,
		physician,
		{
			assignmentId: publicId,
			idempotencyKey: `demo-gold-${publicId}`,
			timeOnTaskMs:
				manner === 'careful'
					? 50_000 + Math.floor(unit('time', publicId) * 90_000)
					: 3_000 + Math.floor(unit('time', publicId) * 4_000),
			entries: order.map((c, i) => ({ candidateId: c.publicId, rank: i + 1, tag: tagOf(c.score) }))
		},
		now
	);
}

/** The demo round and the live study with hidden gold checks, worked as described above. */
export async function seedQualityStudies(db: Db, judges: Judges): Promise<void> {
	await importReviewGold(db, JSON.stringify(DEMO_REVIEW_GOLD), judges.organiser);
	await updateReviewerRound(
		db,
		{ required: false, passMark: 0.75, questionsPerAttempt: 3, maxAttempts: 2 },
		judges.organiser
	);
	const models = await db
		.select({ id: model.id })
		.from(model)
		.where(inArray(model.name, [...DEMO_MODELS]))
		.orderBy(asc(model.id));
	const modelIds = models.map((m) => m.id);
	const open = async (name: string, types: string[], k: number, instructions: string) => {
		const s = await createStudy(
			db,
			{ name, instructions, selection: { types: types as never }, modelIds, ratersPerQuestion: k },
			judges.organiser
		);
		await changeStudyState(db, s.id, 'open', judges.organiser, {
			confirm: true,
			now: new Date(START - DAY)
		});
		const questions = await db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, s.id))
			.orderBy(asc(studyQuestion.id));
		return { id: s.id, questions: questions.map((q) => q.id) };
	};

	const round = await open(
		DEMO_ROUND,
		['true_false', 'multiple_choice', 'short_answer', 'list'],
		3,
		'Rank and tag the answers as in a live study. After each question you see the expected tags and why.'
	);
	await db
		.update(study)
		.set({ purpose: 'qualification', passMark: 0.7, questionsPerAttempt: 3, maxAttempts: 2 })
		.where(eq(study.id, round.id));
	await importGold(db, round.id, await goldFile(db, round.id, round.questions), judges.organiser);

	const live = await open(
		DEMO_GOLD_STUDY,
		[],
		3,
		'Rank the answers from best to worst and tag each one.'
	);
	const gold = live.questions.filter((_, i) => i % 4 === 1);
	await db
		.update(study)
		.set({ qualificationStudyId: round.id, goldEvery: 4, passMark: 0.7 })
		.where(eq(study.id, live.id));
	await importGold(db, live.id, await goldFile(db, live.id, gold), judges.organiser);

	for (const [p, physician] of judges.physicians.entries()) {
		const who = `physician ${p}`;
		let now = START + p * DAY;
		// The round: the third physician's first attempt is hasty and fails.
		for (let i = 0; ; i++) {
			await scoreAttempts(db, round.id, physician);
			const claim = await claimNext(db, round.id, physician, new Date(now));
			if (claim.status !== 'assigned') break;
			now += 3 * MINUTE;
			await rank(
				db,
				physician,
				who,
				claim.publicId,
				p === 2 && i < 3 ? 'hasty' : 'careful',
				new Date(now)
			);
		}
		// Live work over two weeks; the third physician grows hasty in the second.
		now = START + (3 + p) * DAY;
		for (let i = 0; ; i++) {
			if (i === 10) now += 6 * DAY;
			const claim = await claimNext(db, live.id, physician, new Date(now));
			if (claim.status !== 'assigned') break;
			// Within the 30-minute lease.
			now += (4 + Math.floor(unit('pace', who, i) * 20)) * MINUTE;
			await rank(
				db,
				physician,
				who,
				claim.publicId,
				p === 2 && i >= 4 ? 'hasty' : 'careful',
				new Date(now)
			);
		}
	}
}
