// Set-up shared by the rater tests: an open ranking study with gold questions, made through the
// domain before the portal starts, and a physician's judgements in it.
import { eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../src/lib/server/db/client';
import {
	assignment,
	model,
	qaItem,
	study,
	studyQuestion,
	user
} from '../../../src/lib/server/db/schema';
import { validRecord } from '../../../src/lib/server/fixtures/records';
import { importQaFiles } from '../../../src/lib/server/domain/imports/qa-import';
import { importResponses } from '../../../src/lib/server/domain/imports/response-import';
import { importGold } from '../../../src/lib/server/domain/quality/gold';
import { claimNext } from '../../../src/lib/server/domain/studies/queue';
import { changeStudyState, createStudy } from '../../../src/lib/server/domain/studies/studies';
import { submitRanking } from '../../../src/lib/server/domain/studies/designs/ranking/rankings';

/** The account id of an e2e account by its email. */
export async function accountId(db: Db, email: string) {
	return (await db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0].id;
}

export interface GoldStudyOptions {
	name: string;
	/** The study's models; the gold says the first one's answer is good. */
	models: string[];
	/** Short-answer items made from `validRecord(…, seed + i)`. */
	items: number;
	seed: number;
	/** The answer model `m` (its index) gives to an item. */
	response: (item: { id: number; question: string }, m: number) => string;
	/** Which questions (by index in id order) are gold. */
	gold: (index: number) => boolean;
	explanation: string;
	/** Quality settings written over the study's (purpose, gold rate, pass mark, attempts). */
	settings?: Partial<typeof study.$inferInsert>;
}

/** Imports the items and answers, opens the study (k = 2) and makes its gold questions. */
export async function seedGoldStudy(db: Db, organiser: string, o: GoldStudyOptions) {
	const actor = { userId: organiser, label: `${o.name} e2e` };
	const records = Array.from({ length: o.items }, (_, i) =>
		validRecord('short_answer', o.seed + i)
	);
	await importQaFiles(db, [{ fileName: 'gold.json', text: JSON.stringify(records) }], { actor });
	const items = await db
		.select({ id: qaItem.id, question: qaItem.question })
		.from(qaItem)
		.where(
			inArray(
				qaItem.question,
				records.map((r) => String(r.question))
			)
		);
	const lines = items.flatMap((item) =>
		o.models.map((m, i) =>
			JSON.stringify({ item: item.id, model: m, response: o.response(item, i) })
		)
	);
	await importResponses(db, [{ fileName: 'gold.jsonl', text: lines.join('\n') }], { actor });
	const models = await db.select({ id: model.id }).from(model).where(inArray(model.name, o.models));
	const s = await createStudy(
		db,
		{
			name: o.name,
			selection: { itemIds: items.map((i) => i.id) },
			modelIds: models.map((m) => m.id),
			ratersPerQuestion: 2
		},
		organiser,
		{ confirm: true }
	);
	await changeStudyState(db, s.id, 'open', organiser, { confirm: true });
	if (o.settings) await db.update(study).set(o.settings).where(eq(study.id, s.id));
	const questions = await db
		.select({ id: studyQuestion.id })
		.from(studyQuestion)
		.where(eq(studyQuestion.studyId, s.id))
		.orderBy(studyQuestion.id);
	await importGold(
		db,
		s.id,
		JSON.stringify(
			questions
				.filter((_, i) => o.gold(i))
				.map((q) => ({
					question_id: q.id,
					labels: { [`${o.models[0]}/tag`]: 'good' },
					explanation: o.explanation
				}))
		),
		organiser
	);
	return s.id;
}

/** The physician claims and submits `n` questions of the study, tagging every answer bad. */
export async function judgeAllBad(db: Db, studyId: number, physician: string, n: number) {
	for (let i = 0; i < n; i++) {
		const claim = await claimNext(db, studyId, physician);
		if (claim.status !== 'assigned') throw new Error(`no question: ${claim.reason}`);
		const [a] = await db
			.select({ id: assignment.id })
			.from(assignment)
			.where(eq(assignment.publicId, claim.publicId));
		const shown = rowsOf<{ id: string }>(
			await db.execute(sql`select public_id as id from assignment_candidate
				where assignment_id = ${a.id} order by position`)
		);
		await submitRanking(db, physician, {
			assignmentId: claim.publicId,
			idempotencyKey: `bad-${claim.publicId}`,
			timeOnTaskMs: 30_000,
			entries: shown.map((c, r) => ({
				candidateId: c.id,
				rank: r + 1,
				tag: 'bad',
				errorTypes: []
			})),
			confirmInconsistent: true
		} as never);
	}
}
