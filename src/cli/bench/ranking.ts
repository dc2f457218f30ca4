import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { randomId } from '$lib/server/ids';
import { claimNext, type ClaimResult } from '$lib/server/domain/studies/queue';
import { changeStudyState, createStudy } from '$lib/server/domain/studies/studies';
import { submitRankingAndNext } from '$lib/server/domain/studies/designs/ranking/rankings';
import { insertUsers, seedRankingContent } from '$lib/server/fixtures/ranking';
import type { Io } from '../io';
import {
	benchSeconds,
	describePhase,
	measureAlternating,
	openBenchDatabase,
	rateRatio
} from './study-harness';
import { dbCpuLine } from './server-cpu';

const QUESTIONS = 5_000;
const MODELS = 7; // + the reference = 8 answers per question
const PHYSICIANS = 50;
/**
 * Share of the questions already full when the measure starts (BENCH_FILL, 0 to 0.99): a late
 * study, where claims pass over questions other physicians have filled.
 */
const FILL = Math.min(0.99, Math.max(0, Number(process.env.BENCH_FILL) || 0));

/**
 * "Submit ranking + next question" with 5,000 questions × 8 answers and 50 concurrent
 * physicians on PostgreSQL (BENCH_DATABASE_URL; a database of its own, dropped after), beside a
 * raw-driver baseline of the same job through the same postgres.js pool: BEGIN; claim the next
 * slot with FOR UPDATE SKIP LOCKED; insert the ranking rows; mark it done; COMMIT. Statements are
 * counted client-side (postgres.js `debug` sees every statement sent, BEGIN and COMMIT included).
 */
export async function runRankingBench(io: Io) {
	const bench = await openBenchDatabase(io, 'postgres', {
		prefix: 'cliniq_bench_rank',
		pool: PHYSICIANS
	});
	if (!bench) return;
	const { db } = bench;
	const client = bench.sql!;
	const seconds = benchSeconds();
	try {
		const t = performance.now();
		const models = Array.from({ length: MODELS }, (_, i) => `bench-model-${i + 1}`);
		const { modelIds } = await seedRankingContent(db, { count: QUESTIONS, models });
		const [organiser] = await insertUsers(db, 1, ['organiser']);
		const physicians = await insertUsers(db, PHYSICIANS, ['physician']);
		const study = await createStudy(
			db,
			{ name: 'bench', selection: { types: [] }, modelIds, ratersPerQuestion: 3 },
			organiser
		);
		await changeStudyState(db, study.id, 'open', organiser);
		if (FILL > 0)
			// Filled by raters outside the bench: no slot left, k rankings done.
			await client`update study_question set open_slots = 0, completed = 3
				where study_id = ${study.id} and random() < ${FILL}`;
		await prepareBaseline(client);
		io.stdout(
			`  ranking: seeded ${QUESTIONS.toLocaleString('en')} questions × ${MODELS + 1} answers and opened the study in ${((performance.now() - t) / 1000).toFixed(1)} s; ${PHYSICIANS} concurrent clients, ${seconds} s per phase${FILL > 0 ? `; ${Math.round(FILL * 100)} % of the questions full` : ''}`
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
				const result = await submitRankingAndNext(db, physicians[i], {
					assignmentId: claim.publicId,
					idempotencyKey: randomId(),
					timeOnTaskMs: 60_000,
					entries: claim.view!.candidates.map((c, r) => ({
						candidateId: c.id,
						rank: r + 1,
						tag: r < 3 ? 'good' : 'okay'
					}))
				});
				if (result.duplicate) throw new Error('bench submission stored twice');
				current[i] = result.next;
			},
			baseline: () => baselineAction(client)
		});

		io.stdout(describePhase('portal submit ranking + next question (with its view)', portal));
		io.stdout(
			describePhase('raw postgres.js baseline (claim, insert ranking, mark done)', baseline)
		);
		io.stdout(
			`  ranking: portal at ${rateRatio(portal, baseline).toFixed(0)} % of the baseline rate (target ≥ 50 %)`
		);
		io.stdout(dbCpuLine('ranking', portal, baseline));
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
	await sql`create table bench_ranking_entry (
		slot_id integer not null references bench_slot (id),
		candidate smallint not null,
		rank smallint not null,
		tag text not null)`;
	await sql`insert into bench_slot (question_id)
		select g % ${QUESTIONS} from generate_series(1, 200000) g`;
	await sql`analyze bench_slot`;
}

/** The minimum statements of the job: 5 (BEGIN, claim, insert, mark done, COMMIT). */
async function baselineAction(sql: postgres.Sql) {
	await sql.begin(async (tx) => {
		const [slot] = await tx<{ id: number }[]>`
			select id from bench_slot where state = 'pending'
			order by id limit 1 for update skip locked`;
		if (!slot) throw new Error('the baseline ran out of slots');
		const rows = Array.from({ length: MODELS + 1 }, (_, i) => ({
			slot_id: slot.id,
			candidate: i,
			rank: i + 1,
			tag: i < 3 ? 'good' : 'okay'
		}));
		await tx`insert into bench_ranking_entry ${tx(rows)}`;
		await tx`update bench_slot set state = 'done' where id = ${slot.id}`;
	});
}
