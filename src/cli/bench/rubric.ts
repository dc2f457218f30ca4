import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { randomId } from '$lib/server/ids';
import { claimNext, type ClaimResult } from '$lib/server/domain/studies/queue';
import { changeStudyState, createStudy } from '$lib/server/domain/studies/studies';
import { submitScores } from '$lib/server/domain/studies/designs/rubric/submit';
import { HDCEVAL_TEMPLATE } from '$lib/server/domain/studies/designs/rubric/hdceval';
import { subAspectsOf, rubricDefinitionSchema } from '$lib/schemas/rubric';
import { insertUsers } from '$lib/server/fixtures/ranking';
import { insertRubric, seedQuestionSet } from '$lib/server/fixtures/rubric';
import type { Io } from '../io';
import {
	benchSeconds,
	describePhase,
	measureAlternating,
	openBenchDatabase,
	rateRatio
} from './study-harness';
import { dbCpuLine } from './server-cpu';

const QUESTIONS = 1_000;
const MODELS = 3; // + the reference = 4 answers per question
const PHYSICIANS = 50;
/** HDCEval's ten sub-aspects, each with a required rationale. */
const SUB_ASPECTS = subAspectsOf(rubricDefinitionSchema.parse(HDCEVAL_TEMPLATE)).map((s) => s.code);

/**
 * "Submit score sheet + next question" of a rubric study: 1,000 questions of a question set × 4
 * answers, HDCEval's ten sub-aspects with a rationale each (40 scores per sheet), k = 3, 50
 * concurrent physicians on PostgreSQL (BENCH_DATABASE_URL; a database of its own, dropped after),
 * beside a raw-driver baseline of the same job through the same postgres.js pool: BEGIN; claim
 * the next slot with FOR UPDATE SKIP LOCKED; insert the 40 score rows; mark it done; COMMIT.
 * Statements are counted client-side (postgres.js `debug` sees every statement sent).
 */
export async function runRubricBench(io: Io) {
	const bench = await openBenchDatabase(io, 'postgres', {
		prefix: 'cliniq_bench_rubric',
		pool: PHYSICIANS
	});
	if (!bench) return;
	const { db } = bench;
	const client = bench.sql!;
	const seconds = benchSeconds();
	try {
		const t = performance.now();
		const models = Array.from({ length: MODELS }, (_, i) => `bench-model-${i + 1}`);
		const set = await seedQuestionSet(db, { questions: QUESTIONS, models });
		const rubric = await insertRubric(db, HDCEVAL_TEMPLATE, 'HDCEval');
		const [organiser] = await insertUsers(db, 1, ['organiser']);
		const physicians = await insertUsers(db, PHYSICIANS, ['physician']);
		const study = await createStudy(
			db,
			{
				name: 'bench',
				design: 'rubric',
				questionSetId: set.questionSetId,
				rubricId: rubric.rubricId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 3
			},
			organiser
		);
		await changeStudyState(db, study.id, 'open', organiser, { confirm: true });
		await prepareBaseline(client);
		io.stdout(
			`  rubric: seeded ${QUESTIONS.toLocaleString('en')} questions × ${MODELS + 1} answers × ${SUB_ASPECTS.length} sub-aspects and opened the study in ${((performance.now() - t) / 1000).toFixed(1)} s; ${PHYSICIANS} concurrent clients, ${seconds} s per phase`
		);

		// Each physician's first question (their order is filled from the seed then), unmeasured.
		const first = await Promise.all(
			physicians.map((p) => claimNext(db, study.id, p, new Date(), { view: true }))
		);
		const idle = first.filter((c) => c.status !== 'assigned').length;
		if (idle) throw new Error(`${idle} physicians got no first question`);
		const current: ClaimResult[] = first;
		const { portal, baseline } = await measureAlternating({
			clients: PHYSICIANS,
			seconds,
			statements: bench.statements,
			serverCpu: bench.serverCpu,
			ready: (i) => current[i].status === 'assigned',
			portal: async (i) => {
				const claim = current[i] as Extract<ClaimResult, { status: 'assigned' }>;
				const answers = claim.view!.candidates.map((c) => c.id);
				const result = await submitScores(
					db,
					physicians[i],
					study.id,
					answers,
					{
						assignmentId: claim.publicId,
						idempotencyKey: randomId(),
						timeOnTaskMs: 60_000,
						layout: 'side_by_side',
						scores: answers.flatMap((answer, a) =>
							SUB_ASPECTS.map((subAspect, s) => ({
								answer,
								subAspect,
								score: (a + s) % 6,
								rationale: `Rationale ${a}.${s}`
							}))
						)
					},
					{ next: true }
				);
				if (result.duplicate) throw new Error('bench submission stored twice');
				current[i] = result.next!;
			},
			baseline: () => baselineAction(client)
		});

		io.stdout(describePhase('portal submit score sheet + next question (with its view)', portal));
		io.stdout(
			describePhase('raw postgres.js baseline (claim, insert 40 scores, mark done)', baseline)
		);
		io.stdout(
			`  rubric: portal at ${rateRatio(portal, baseline).toFixed(0)} % of the baseline rate (target ≥ 50 %)`
		);
		io.stdout(dbCpuLine('rubric', portal, baseline));
	} finally {
		await bench.close();
	}
}

/** The baseline's queue: one pending slot per (question, rater), beside the portal's tables. */
async function prepareBaseline(sql: postgres.Sql) {
	await sql`create table bench_slot (
		id integer generated always as identity primary key,
		question_id integer not null,
		state text not null default 'pending')`;
	await sql`create index bench_slot_pending on bench_slot (id) where state = 'pending'`;
	await sql`create table bench_score (
		slot_id integer not null references bench_slot (id),
		candidate smallint not null,
		sub_aspect text not null,
		score smallint not null,
		rationale text,
		primary key (slot_id, candidate, sub_aspect))`;
	await sql`insert into bench_slot (question_id)
		select g % ${QUESTIONS} from generate_series(1, 200000) g`;
	await sql`analyze bench_slot`;
}

/** The minimum statements of the job: 5 (BEGIN, claim, insert the scores, mark done, COMMIT). */
async function baselineAction(sql: postgres.Sql) {
	await sql.begin(async (tx) => {
		const [slot] = await tx<{ id: number }[]>`
			select id from bench_slot where state = 'pending'
			order by id limit 1 for update skip locked`;
		if (!slot) throw new Error('the baseline ran out of slots');
		const rows = Array.from({ length: MODELS + 1 }, (_, a) =>
			SUB_ASPECTS.map((subAspect, s) => ({
				slot_id: slot.id,
				candidate: a,
				sub_aspect: subAspect,
				score: (a + s) % 6,
				rationale: `Rationale ${a}.${s}`
			}))
		).flat();
		await tx`insert into bench_score ${tx(rows)}`;
		await tx`update bench_slot set state = 'done' where id = ${slot.id}`;
	});
}
