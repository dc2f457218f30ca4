// The evidence design's figures: an assessor's screen of one answer (a 250-word answer of 12
// sentences citing 15 abstracts, among 10,000 imported documents) opened through the portal's
// `evidenceScreen`, and one step saved through `saveEvidenceStep` (one statement,
// `evidence_save`), each beside a raw-driver baseline of the same job, on PGlite in memory and on
// PostgreSQL (BENCH_DATABASE_URL; `none` skips it).
import { performance } from 'node:perf_hooks';
import type { DatabaseKind } from '$lib/server/db/client';
import { claimNext, type ClaimResult } from '$lib/server/domain/studies/queue';
import { changeStudyState, createStudy } from '$lib/server/domain/studies/studies';
import {
	evidenceScreen,
	saveEvidenceStep
} from '$lib/server/domain/studies/designs/evidence/assessment';
import { insertUsers } from '$lib/server/fixtures/ranking';
import type { Io } from '../io';
import {
	benchSeconds,
	describePhase,
	measureAlternating,
	openBenchDatabase,
	rateRatio,
	since,
	type RawDriver
} from './study-harness';
import { dbCpuLine } from './server-cpu';

export interface EvidenceBenchOptions {
	/** Abstracts imported (each of 10 sentences). */
	documents: number;
	/** Questions of the study; each answered by every run. */
	questions: number;
	runs: number;
	/** Concurrent assessors. */
	assessors: number;
	seconds: number;
	kinds: DatabaseKind[];
}

export const defaultEvidenceOptions = (): EvidenceBenchOptions => ({
	documents: 10_000,
	questions: 40,
	runs: 4,
	assessors: 8,
	seconds: benchSeconds(),
	kinds: process.env.BENCH_DATABASE_URL === 'none' ? ['pglite'] : ['pglite', 'postgres']
});

/** Sentences of every answer, and the citations of sentence i (1-based): 2 for the first 3, else 1. */
const SENTENCES = 12;
const citationsOf = (i: number) => (i <= 3 ? 2 : 1);
export const CITATIONS = Array.from({ length: SENTENCES }, (_, i) => citationsOf(i + 1)).reduce(
	(a, b) => a + b,
	0
);

export async function runEvidenceBench(io: Io, options = defaultEvidenceOptions()): Promise<void> {
	const o = options;
	io.stdout(
		`Evidence studies (${o.documents.toLocaleString('en')} documents; answers of ${SENTENCES} sentences, about 250 words, citing ${CITATIONS} abstracts; ${o.assessors} assessors; ${o.seconds} s per phase)`
	);
	for (const kind of o.kinds) await kindBench(io, kind, o);
}

async function kindBench(io: Io, kind: DatabaseKind, o: EvidenceBenchOptions) {
	const bench = await openBenchDatabase(io, kind, {
		prefix: 'cliniq_bench_evidence',
		pool: o.assessors
	});
	if (!bench) return;
	const { db, raw } = bench;
	const name = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
	try {
		const t = performance.now();
		const [organiser] = await insertUsers(db, 1, ['organiser']);
		const assessors = await insertUsers(db, o.assessors, ['physician']);
		const set = await seedEvidence(raw, o);
		const study = await createStudy(
			db,
			{
				name: 'bench evidence',
				design: 'evidence',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				includeReference: false,
				ratersPerQuestion: 1
			},
			organiser,
			{ confirm: true }
		);
		await changeStudyState(db, study.id, 'open', organiser, { confirm: true });
		const claims = (await Promise.all(assessors.map((a) => claimNext(db, study.id, a)))) as Extract<
			ClaimResult,
			{ status: 'assigned' }
		>[];
		if (claims.some((c) => c.status !== 'assigned')) throw new Error('an assessor got no answer');
		io.stdout(
			`  evidence, ${name}: seeded ${o.documents.toLocaleString('en')} documents and ${(o.questions * o.runs).toLocaleString('en')} answers, opened the study in ${since(t)} s`
		);
		// What the baseline reads and writes: the assessor's answer (its candidate) and the ids.
		const targets = await Promise.all(
			claims.map(async (c) => {
				const [row] = await raw.query<{ assignment: number; candidate: number }>(
					`select a.id as assignment, c.id as candidate from assignment a
					join candidate c on c.study_question_id = a.study_question_id where a.public_id = $1`,
					[c.publicId]
				);
				return row;
			})
		);
		// Each assessor's first sentence: its words and the PMIDs it cites, for the saved step.
		const firsts = await Promise.all(
			claims.map(async (c, i) => {
				const screen = await evidenceScreen(db, assessors[i], c.publicId);
				if (!screen || screen.sentences.length !== SENTENCES)
					throw new Error('the screen does not show the answer');
				const s = screen.sentences[0];
				return { words: s.words.length, cited: s.citations.map((x) => x.pmid) };
			})
		);

		const open = await measureAlternating({
			clients: o.assessors,
			seconds: o.seconds,
			statements: bench.statements,
			serverCpu: bench.serverCpu,
			portal: async (i) => {
				const screen = await evidenceScreen(db, assessors[i], claims[i].publicId);
				if (!screen) throw new Error('no screen');
			},
			baseline: () => baselineOpen(raw, targets[0])
		});
		io.stdout(describePhase(`${name}: portal opens an answer's screen`, open.portal));
		io.stdout(
			describePhase(
				`${name}: raw driver baseline (the question, the answer's sentences, its documents, the saved work)`,
				open.baseline
			)
		);
		io.stdout(
			`  evidence, ${name}: screen at ${rateRatio(open.portal, open.baseline).toFixed(0)} % of the baseline rate`
		);
		io.stdout(dbCpuLine(`evidence, ${name}, screen`, open.portal, open.baseline));

		const stepOf = (i: number) => ({
			position: 1,
			interpretable: true,
			assertions: [
				{
					start: 0,
					end: Math.min(4, firsts[i].words),
					relevance: 'required' as const,
					relations: firsts[i].cited.map((pmid) => ({
						pmid,
						relation: 'supports' as const,
						evidence: [1, 3]
					}))
				}
			]
		});
		let n = 0;
		const save = await measureAlternating({
			clients: o.assessors,
			seconds: o.seconds,
			statements: bench.statements,
			serverCpu: bench.serverCpu,
			portal: async (i) => {
				await saveEvidenceStep(db, assessors[i], claims[i].publicId, stepOf(i), {
					timeOnTaskMs: 1000
				});
			},
			baseline: () => {
				const i = n++ % targets.length;
				return baselineSave(raw, targets[i].assignment, firsts[i].cited);
			}
		});
		io.stdout(describePhase(`${name}: portal saves one sentence's step`, save.portal));
		io.stdout(
			describePhase(
				`${name}: raw driver baseline (lock, label, replace the assertion and its relations)`,
				save.baseline
			)
		);
		io.stdout(
			`  evidence, ${name}: saving at ${rateRatio(save.portal, save.baseline).toFixed(0)} % of the baseline rate`
		);
		io.stdout(dbCpuLine(`evidence, ${name}, step`, save.portal, save.baseline));
	} finally {
		await bench.close();
	}
}

/**
 * Documents, questions, runs and their answers' sentences, written with set-based SQL: answer
 * sentence i of (question q, run r) cites PMIDs drawn from the whole corpus.
 */
async function seedEvidence(raw: RawDriver, o: EvidenceBenchOptions) {
	await raw.query(
		`insert into document (pmid, title, abstract, sentences, record, content_hash)
		select (20000000 + g)::text, 'Trial ' || g, a.text, a.sentences, jsonb_build_object('pmid', g), md5(g::text)
		from generate_series(1, $1::int) g
		cross join lateral (
			select string_agg(s, ' ') as text, jsonb_agg(s) as sentences from (
				select 'Finding ' || i || ' of trial ' || g || ': patients on treatment had ' || (i * 7 % 40) || '% fewer events than controls (p < 0.05).' as s
				from generate_series(1, 10) i) x) a`,
		[o.documents]
	);
	const [set] = await raw.query<{ id: number }>(
		`insert into question_set (name) values ('bench evidence') returning id`
	);
	await raw.query(
		`insert into set_question (question_set_id, external_id, question, context, record, content_hash)
		select $1::int, g::text, 'What is the best treatment for condition ' || g || '?',
			'A clinician asks about adults.', jsonb_build_object('id', g), md5('q' || g)
		from generate_series(1, $2::int) g`,
		[set.id, o.questions]
	);
	const models = await raw.query<{ id: number }>(
		`insert into model (name) select 'bench-run-' || g from generate_series(1, $1::int) g returning id`,
		[o.runs]
	);
	// About 21 words a sentence: 12 sentences, about 250 words an answer.
	await raw.query(
		`insert into set_response (set_question_id, model_id, text, record, content_hash)
		select q.id, m.id, 'answer', '{}'::jsonb, md5(q.id || '-' || m.id)
		from set_question q cross join unnest($2::int[]) as m(id)
		where q.question_set_id = $1::int`,
		[set.id, models.map((m) => m.id)]
	);
	await raw.query(
		`insert into evidence_answer_sentence (set_response_id, position, text, citations)
		select r.id, i,
			'Claim ' || i || ' of this answer says that the treatment of this condition in most adults reduces the events reported in the cited trials by a margin.',
			array(select (20000000 + 1 + ((r.id * 131 + i * 17 + c * 7919) % $2::int))::text
				from generate_series(1, case when i <= 3 then 2 else 1 end) c)
		from set_response r join set_question q on q.id = r.set_question_id
		cross join generate_series(1, ${SENTENCES}) i
		where q.question_set_id = $1::int`,
		[set.id, o.documents]
	);
	await raw.query(`analyze document`);
	return { questionSetId: set.id, modelIds: models.map((m) => m.id) };
}

/**
 * The baseline of opening a screen, the same data with plain statements: the assignment (its
 * owner) with its question, the answer's sentences, the documents they cite, and what was saved
 * (labels, assertions with their relations).
 */
async function baselineOpen(raw: RawDriver, target: { assignment: number; candidate: number }) {
	await raw.query(
		`select a.public_id, sq.question, sq.context from assignment a
		join study_question q on q.id = a.study_question_id
		join set_question sq on sq.id = q.set_question_id where a.id = $1`,
		[target.assignment]
	);
	const sentences = await raw.query<{ citations: string[] }>(
		`select position, text, words, citations from evidence_sentence where candidate_id = $1 order by position`,
		[target.candidate]
	);
	await raw.query(`select pmid, title, sentences from document where pmid = any($1::text[])`, [
		sentences.flatMap((s) => s.citations)
	]);
	await raw.query(
		`select t.position, t.start_word, t.end_word, t.relevance, r.pmid, r.relation, r.evidence
		from evidence_assertion t left join evidence_relation r on r.assertion_id = t.id
		where t.assignment_id = $1 order by t.position, t.start_word`,
		[target.assignment]
	);
}

/** The baseline of saving a step: the same rows written with plain statements in a transaction. */
async function baselineSave(raw: RawDriver, assignment: number, cited: string[]) {
	await raw.transaction(async (q) => {
		await q(`select id from assignment where id = $1 for update`, [assignment]);
		await q(
			`insert into evidence_sentence_label (assignment_id, position, interpretable) values ($1, 1, true)
			on conflict (assignment_id, position) do update set interpretable = excluded.interpretable`,
			[assignment]
		);
		await q(`delete from evidence_assertion where assignment_id = $1 and position = 1`, [
			assignment
		]);
		const [a] = await q<{ id: number }>(
			`insert into evidence_assertion (assignment_id, position, start_word, end_word, relevance)
			values ($1, 1, 0, 4, 'required') returning id`,
			[assignment]
		);
		await q(
			`insert into evidence_relation (assertion_id, pmid, relation, evidence)
			select $1, p, 'supports', '{1,3}' from unnest($2::text[]) p`,
			[a.id, cited]
		);
	});
}
