import { performance } from 'node:perf_hooks';
import { randomId } from '$lib/server/ids';
import type { DatabaseKind } from '$lib/server/db/client';
import { claimNext, type ClaimResult } from '$lib/server/domain/studies/queue';
import { changeStudyState, createStudy } from '$lib/server/domain/studies/studies';
import { submitPreference } from '$lib/server/domain/studies/designs/pairwise/submit';
import {
	PAIRWISE_BOOTSTRAP,
	pairwiseReport,
	preferenceRows
} from '$lib/server/domain/studies/designs/pairwise/statistics';
import { seededRandom } from '$lib/stats/bootstrap';
import {
	bradleyTerry,
	btLeaderboard,
	type Battle,
	type BattleWinner
} from '$lib/stats/bradley-terry';
import type { PreferenceOutcome } from '$lib/constants';
import { insertUsers } from '$lib/server/fixtures/ranking';
import type { Io } from '../io';
import {
	benchSeconds,
	describePhase,
	measureAlternating,
	openBenchDatabase,
	rateRatio,
	since,
	type BenchDatabase,
	type RawDriver
} from './study-harness';
import { dbCpuLine } from './server-cpu';

/** The sizes of the pairwise bench (the defaults are the issue's; tests pass tiny ones). */
export interface PairwiseBenchOptions {
	/** Questions of the judged study; each gets every pair of its MODELS + 1 answers. */
	questions: number;
	/**
	 * Questions of the study whose report is timed, filled to k judgements per pair with set-based
	 * SQL (never claimed: a claim orders a physician's every pair); per driver.
	 */
	reportQuestions: Record<DatabaseKind, number>;
	physicians: number;
	/** Raters per pair (k). */
	k: number;
	/** Length of each measured phase, in seconds. */
	seconds: number;
	kinds: DatabaseKind[];
	/** The leaderboard's battles: `battleQuestions` questions × every pair of 8 models. */
	battleQuestions: number;
	resamples: number;
	/** Resamples of the naive bootstrap baseline (its time per resample is what counts). */
	naiveResamples: number;
}

const MODELS = 7; // + the reference = 8 answers, 28 pairs per question

export const defaultPairwiseOptions = (): PairwiseBenchOptions => ({
	questions: 500,
	// 2,500 × 28 pairs × k = 2: 140,000 judgements. PGlite opens such a study in over a minute.
	reportQuestions: { postgres: 2_500, pglite: 500 },
	physicians: 50,
	k: 2,
	seconds: benchSeconds(),
	kinds: process.env.BENCH_DATABASE_URL === 'none' ? ['pglite'] : ['pglite', 'postgres'],
	battleQuestions: 5_000,
	resamples: PAIRWISE_BOOTSTRAP.resamples,
	naiveResamples: Number(process.env.BENCH_NAIVE_RESAMPLES) || 50
});

const s = (seconds: number) => `${seconds.toFixed(2)} s`;

async function timed<T>(job: () => Promise<T> | T): Promise<{ seconds: number; value: T }> {
	const start = performance.now();
	const value = await job();
	return { seconds: (performance.now() - start) / 1000, value };
}

/**
 * The pairwise design's figures: (1) "submit preference + next pair" through `submitPreference`
 * (one statement, `pairwise_submit`) by concurrent physicians on PGlite in memory and on
 * PostgreSQL (BENCH_DATABASE_URL; a database of its own, dropped after; `none` skips it), beside
 * a raw-driver baseline of the same job (BEGIN; claim a slot with FOR UPDATE SKIP LOCKED; insert
 * the preference; mark the slot done; COMMIT); then a full study (on PostgreSQL 2,500 questions ×
 * 28 pairs × k = 2, 140,000 judgements) filled with set-based SQL and its whole report
 * (`pairwiseReport`, 1,000 resamples) timed against its extraction query alone; (2) the
 * Bradley–Terry leaderboard (`btLeaderboard`, 1,000 resamples over questions) on 8 models × 5,000
 * questions × 28 pairs, beside one plain fit and the naive bootstrap that refits each resample's
 * battles.
 */
export async function runPairwiseBench(io: Io, options = defaultPairwiseOptions()): Promise<void> {
	const o = options;
	io.stdout(
		`Pairwise preference studies (judged: ${o.questions.toLocaleString('en')} questions × ${(((MODELS + 1) * MODELS) / 2).toLocaleString('en')} pairs, k = ${o.k}, ${o.physicians} physicians; ${o.seconds} s per phase)`
	);
	for (const kind of o.kinds) await judgingBench(io, kind, o);
	leaderboardBench(io, o);
}

async function judgingBench(io: Io, kind: DatabaseKind, o: PairwiseBenchOptions) {
	const bench = await openBenchDatabase(io, kind, {
		prefix: 'cliniq_bench_pairwise',
		pool: o.physicians
	});
	if (!bench) return;
	const { db } = bench;
	const name = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
	try {
		const t = performance.now();
		const [organiser] = await insertUsers(db, 1, ['organiser']);
		const physicians = await insertUsers(db, o.physicians, ['physician']);
		const study = await openPairwiseStudy(bench, organiser, 'bench', o.questions, o.k);
		io.stdout(
			`  pairwise, ${name}: seeded ${o.questions.toLocaleString('en')} questions × ${MODELS + 1} answers and opened the study (its pairs made) in ${since(t)} s; ${o.physicians} concurrent clients`
		);
		// The report's study is opened before any physician's order exists, so the judging phase
		// measures one study's orders only.
		const reportQuestions = o.reportQuestions[kind];
		let reportStudy = study.id;
		if (reportQuestions !== o.questions) {
			const t = performance.now();
			reportStudy = (
				await openPairwiseStudy(bench, organiser, 'bench report', reportQuestions, o.k)
			).id;
			io.stdout(
				`  pairwise, ${name}: seeded ${reportQuestions.toLocaleString('en')} questions × ${MODELS + 1} answers and opened a second study, for its report, in ${since(t)} s`
			);
		}
		await prepareBaseline(bench.raw, o.questions);

		// Each physician's first pair (their order is filled from the seed then), unmeasured.
		const first = await Promise.all(
			physicians.map((p) => claimNext(db, study.id, p, new Date(), { view: true }))
		);
		const idle = first.filter((c) => c.status !== 'assigned').length;
		if (idle) throw new Error(`${idle} physicians got no first pair`);
		const current: ClaimResult[] = first;
		let n = 0;
		const { portal, baseline } = await measureAlternating({
			clients: o.physicians,
			seconds: o.seconds,
			statements: bench.statements,
			serverCpu: bench.serverCpu,
			ready: (i) => current[i].status === 'assigned',
			portal: async (i) => {
				const claim = current[i] as Extract<ClaimResult, { status: 'assigned' }>;
				const outcome = OUTCOMES[n++ % OUTCOMES.length];
				const result = await submitPreference(
					db,
					physicians[i],
					study.id,
					{
						assignmentId: claim.publicId,
						idempotencyKey: randomId(),
						timeOnTaskMs: 30_000,
						outcome,
						strength: outcome === 'left' || outcome === 'right' ? 'clearly' : null,
						aspects: {},
						reason: ''
					},
					{ next: true }
				);
				if (result.duplicate) throw new Error('bench submission stored twice');
				current[i] = result.next!;
			},
			baseline: () => baselineAction(bench.raw)
		});
		io.stdout(
			describePhase(`${name}: portal submit preference + next pair (with its view)`, portal)
		);
		io.stdout(
			describePhase(`${name}: raw driver baseline (claim, insert preference, mark done)`, baseline)
		);
		io.stdout(
			`  pairwise, ${name}: portal at ${rateRatio(portal, baseline).toFixed(0)} % of the baseline rate`
		);
		io.stdout(dbCpuLine(`pairwise, ${name}`, portal, baseline));
		await reportBench(io, bench, name, reportStudy, o);
	} finally {
		await bench.close();
	}
}

/** A pairwise study (every pair, k raters) of a new question set of `questions`, opened. */
export async function openPairwiseStudy(
	bench: BenchDatabase,
	organiser: string,
	name: string,
	questions: number,
	k: number
) {
	const set = await seedPairwiseSet(bench.raw, questions, name);
	const study = await createStudy(
		bench.db,
		{
			name,
			design: 'pairwise',
			questionSetId: set.questionSetId,
			selection: { types: [] },
			modelIds: set.modelIds,
			ratersPerQuestion: k
		},
		organiser
	);
	await changeStudyState(bench.db, study.id, 'open', organiser, { confirm: true });
	return study;
}

/**
 * A question set of `questions` questions with a reference answer, each answered by MODELS models,
 * written with set-based SQL (the fixtures' one-statement inserts exceed PostgreSQL's 65,535
 * parameters at this size). Answers have the same form, so the blinding audit finds nothing.
 */
async function seedPairwiseSet(raw: RawDriver, questions: number, name: string) {
	const [set] = await raw.query<{ id: number }>(
		`insert into question_set (name) values ($1) returning id`,
		[name]
	);
	await raw.query(
		`insert into set_question (question_set_id, external_id, question, context, reference_answer, record, content_hash)
		select $1::int, 'q' || g, 'Is symptom number ' || g || ' something to worry about?',
			'A patient writes in.', 'Answer ' || g || ': option ${MODELS + 1} applies if it persists.',
			jsonb_build_object('id', 'q' || g), md5('q' || g)
		from generate_series(1, $2::int) g`,
		[set.id, questions]
	);
	await raw.query(
		`insert into model (name) select 'bench-model-' || g from generate_series(1, ${MODELS}) g
		on conflict (name) do nothing`
	);
	const models = await raw.query<{ id: number }>(
		`select id from model where name like 'bench-model-%' order by id`
	);
	await raw.query(
		`insert into set_response (set_question_id, model_id, text, record, content_hash)
		select q.id, m.id, t.text, jsonb_build_object('response', t.text), md5(t.text)
		from set_question q cross join (select * from model where name like 'bench-model-%') m
		cross join lateral (select replace(q.reference_answer, 'option ${MODELS + 1}',
			'option ' || substr(m.name, 13)) as text) t
		where q.question_set_id = $1::int`,
		[set.id]
	);
	return { questionSetId: set.id, modelIds: models.map((m) => m.id) };
}

const OUTCOMES: PreferenceOutcome[] = ['left', 'right', 'left', 'tie_good', 'right', 'tie_bad'];

/** The baseline's queue: one pending slot per (pair, rater), beside the portal's tables. */
async function prepareBaseline(raw: RawDriver, questions: number) {
	await raw.query(`create table bench_slot (
		id integer generated always as identity primary key,
		pair_id integer not null,
		state text not null default 'pending')`);
	await raw.query(`create index bench_slot_pending on bench_slot (id) where state = 'pending'`);
	await raw.query(`create table bench_preference (
		slot_id integer not null references bench_slot (id),
		left_answer smallint not null,
		right_answer smallint not null,
		outcome text not null,
		strength text,
		time_on_task_ms integer)`);
	await raw.query(
		`insert into bench_slot (pair_id) select g % $1 from generate_series(1, 200000) g`,
		[questions * 28]
	);
	await raw.query(`analyze bench_slot`);
}

/** The minimum statements of the job: 5 (BEGIN, claim, insert, mark done, COMMIT). */
async function baselineAction(raw: RawDriver) {
	await raw.transaction(async (q) => {
		const [slot] = await q<{ id: number }>(
			`select id from bench_slot where state = 'pending' order by id limit 1 for update skip locked`
		);
		if (!slot) throw new Error('the baseline ran out of slots');
		await q(
			`insert into bench_preference (slot_id, left_answer, right_answer, outcome, strength, time_on_task_ms)
			values ($1, 0, 1, 'left', 'clearly', 30000)`,
			[slot.id]
		);
		await q(`update bench_slot set state = 'done' where id = $1`, [slot.id]);
	});
}

/**
 * Fills the study's open slots with judgements by set-based SQL (physicians spread over the pairs,
 * one skipped where it already holds the pair, so a few pairs stay below k;
 * sides alternating, outcomes drawn from model strengths: the reference strongest, then by model
 * id), then times the report the agreement page shows against its extraction query.
 */
async function reportBench(
	io: Io,
	bench: BenchDatabase,
	name: string,
	studyId: number,
	o: PairwiseBenchOptions
) {
	const fill = await timed(async () => {
		await bench.raw.query(`create table if not exists bench_physician as
			select (row_number() over (order by id) - 1)::int as n, id from "user"
			where 'physician' = any(roles)`);
		await bench.raw.query(
			`insert into assignment (study_question_id, physician_id, public_id, seed, state, submitted_at)
			select sq.id, p.id, 'fill-' || sq.id || '-' || r, 'bench-fill', 'submitted', now()
			from study_question sq
			cross join generate_series(0, sq.open_slots - 1) r
			join bench_physician p on p.n = (sq.id + r * 17) % $2::int
			where sq.study_id = $1::int
			on conflict do nothing`,
			[studyId, o.physicians]
		);
		await bench.raw.query(
			`insert into pairwise_judgement (assignment_id, rater_id, idempotency_key,
				left_candidate_id, right_candidate_id, outcome, submitted_at)
			select a.id, a.physician_id, a.public_id,
				case when a.id % 2 = 0 then c.lo else c.hi end,
				case when a.id % 2 = 0 then c.hi else c.lo end,
				(case
					when u < 0.1 then 'tie_good'
					when u < 0.15 then 'tie_bad'
					when (u - 0.15) / 0.85 < 1 / (1 + power(10, (c.lo_model - c.hi_model) * 0.1))
						then case when a.id % 2 = 0 then 'left' else 'right' end
					else case when a.id % 2 = 0 then 'right' else 'left' end
				end)::preference_outcome,
				now()
			from assignment a
			join (select study_question_id, min(id) as lo, max(id) as hi,
					coalesce(min(model_id) filter (where id = lo_id), 0) as lo_model,
					coalesce(min(model_id) filter (where id = hi_id), 0) as hi_model
				from (select *, min(id) over w as lo_id, max(id) over w as hi_id from candidate
					window w as (partition by study_question_id)) x
				group by study_question_id) c on c.study_question_id = a.study_question_id
			cross join lateral (select random() as u) r
			join study_question sq on sq.id = a.study_question_id
			where a.seed = 'bench-fill' and sq.study_id = $1::int`,
			[studyId]
		);
		await bench.raw.query(`analyze`);
	});
	const [{ judgements }] = await bench.raw.query<{ judgements: number }>(
		`select count(*)::int as judgements from pairwise_judgement j
		join assignment a on a.id = j.assignment_id
		join study_question sq on sq.id = a.study_question_id where sq.study_id = $1::int`,
		[studyId]
	);
	io.stdout(
		`  pairwise, ${name}: filled the study to ${judgements.toLocaleString('en')} judgements with set-based SQL in ${s(fill.seconds)}`
	);
	const extraction = await timed(() => preferenceRows(bench.db, studyId));
	const report = await timed(() => pairwiseReport(bench.db, studyId, { ...PAIRWISE_BOOTSTRAP }));
	if (report.value?.judgements !== judgements) throw new Error('the report missed judgements');
	io.stdout(
		`  pairwise, ${name}: report (leaderboard with ${PAIRWISE_BOOTSTRAP.resamples.toLocaleString('en')} resamples, length-controlled one, matrix, biases, agreement): ${s(report.seconds)}; its extraction query alone: ${s(extraction.seconds)} (${(report.seconds / extraction.seconds).toFixed(1)} ×)`
	);
}

/** Battles of 8 models of spread strengths: every pair on each question, 10 % ties, 5 % both bad. */
export function benchBattles(questions: number, seed = 'bench'): Battle[] {
	const random = seededRandom(seed);
	const models = Array.from({ length: MODELS + 1 }, (_, i) => `model-${i + 1}`);
	const battles: Battle[] = [];
	for (let q = 0; q < questions; q++)
		for (let x = 0; x < models.length; x++)
			for (let y = x + 1; y < models.length; y++) {
				const [a, b] = random() < 0.5 ? [x, y] : [y, x];
				const u = random();
				const p = 1 / (1 + 10 ** ((a - b) * 0.08));
				const winner: BattleWinner =
					u < 0.1 ? 'tie' : u < 0.15 ? 'tie (bothbad)' : random() < p ? 'model_a' : 'model_b';
				battles.push({ question: `q${q}`, modelA: models[a], modelB: models[b], winner });
			}
	return battles;
}

/** The naive bootstrap: each resample's drawn questions' battles refitted with `bradleyTerry`. */
function naiveBootstrap(battles: Battle[], resamples: number, seed: string) {
	const byQuestion = new Map<string, Battle[]>();
	for (const b of battles) {
		const list = byQuestion.get(b.question);
		if (list) list.push(b);
		else byQuestion.set(b.question, [b]);
	}
	const questions = [...byQuestion.values()];
	const random = seededRandom(seed);
	for (let r = 0; r < resamples; r++) {
		const drawn: Battle[] = [];
		for (let i = 0; i < questions.length; i++)
			drawn.push(...questions[Math.floor(random() * questions.length)]);
		bradleyTerry(drawn);
	}
}

function leaderboardBench(io: Io, o: PairwiseBenchOptions) {
	const battles = benchBattles(o.battleQuestions);
	const clock = <T>(job: () => T) => {
		const start = performance.now();
		job();
		return (performance.now() - start) / 1000;
	};
	const label = `${battles.length.toLocaleString('en')} battles (8 models × ${o.battleQuestions.toLocaleString('en')} questions × 28 pairs)`;
	const plain = clock(() => bradleyTerry(battles));
	const board = clock(() => btLeaderboard(battles, { resamples: o.resamples, seed: 'bench' }));
	const naive = clock(() => naiveBootstrap(battles, o.naiveResamples, 'bench'));
	const naivePer = naive / o.naiveResamples;
	io.stdout(`  leaderboard, ${label}:`);
	io.stdout(`    one plain Bradley–Terry fit (bradleyTerry): ${s(plain)}`);
	io.stdout(
		`    btLeaderboard with ${o.resamples.toLocaleString('en')} resamples over questions: ${s(board)} (${(board / plain).toFixed(1)} × one plain fit)`
	);
	io.stdout(
		`    baseline, the naive bootstrap (drawn battles refitted with bradleyTerry): ${s(naive)} for ${o.naiveResamples} resamples, ${(naivePer * 1000).toFixed(1)} ms each, ≈ ${s(naivePer * o.resamples)} for ${o.resamples.toLocaleString('en')}; btLeaderboard ${((naivePer * o.resamples) / board).toFixed(1)} × faster`
	);
}
