import { DomainError } from '../../errors';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { aggregateItems, createEmbedder, scoreCases, type TaskType } from '$scoring';
import {
	model,
	qaItem,
	response,
	score,
	scoringRun,
	scoringRunCorpus,
	snapshot,
	snapshotItem
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { importQaFiles } from '../imports/qa-import';
import { importResponses } from '../imports/response-import';
import { parseCsv } from '../../csv';
import { runScores, scoreDistributions, scoresCsv } from './results';
import {
	createRun,
	executeRun,
	headlineValue,
	getRun,
	newRunSchema,
	rerunRun,
	RunHandedBack,
	type RunSummary
} from './runs';
import { createUser } from '../people/users';

const actor = { userId: null, label: 'test' };
const TYPES: TaskType[] = [
	'true_false',
	'multiple_choice',
	'list',
	'short_answer',
	'short_inverse',
	'multi_hop',
	'multi_hop_inverse'
];
const records = TYPES.flatMap((t) => [validRecord(t, 1), validRecord(t, 2)]);
/** A strong and a weak model; each answers every item (the weak one skips one short answer). */
const answers: Record<string, (r: Record<string, unknown>, i: number) => unknown> = {
	strong: (r) =>
		r.type === 'true_false'
			? 'True'
			: r.type === 'multiple_choice'
				? r.correct_answer
				: r.type === 'list'
					? (r.answer as string[]).join(', ')
					: r.type === 'short_inverse'
						? r.incorrect_explanation
						: r.type === 'multi_hop_inverse'
							? 'Step 2. Thiazides raise serum uric acid by reducing renal excretion.'
							: r.answer,
	weak: (r, i) => (i % 3 === 0 ? 'False' : [{ generated_text: 'I am not sure about this.' }])
};

describeEachDb('scoring runs', (h) => {
	let userId: string;
	beforeEach(async () => {
		await importQaFiles(h.db, [{ fileName: 'qa.json', text: JSON.stringify(records) }], { actor });
		for (const [name, answer] of Object.entries(answers)) {
			const files = TYPES.map((t) => {
				const inputs = records.filter((r) => r.type === t);
				const responses = inputs.map((r) => answer(r, records.indexOf(r)));
				return { fileName: `${t}.json`, text: JSON.stringify({ inputs, responses }) };
			});
			await importResponses(h.db, files, { actor, model: name });
		}
		const organiser = await createUser(h.db, {
			email: 'org@test.local',
			displayName: 'Org',
			roles: ['organiser'],
			password: 'a-long-enough-password'
		});
		userId = organiser.id;
	});
	afterEach(() => {
		vi.unstubAllEnvs();
	});

	const modelIds = async () =>
		(await h.db.select().from(model).orderBy(asc(model.id))).map((m) => m.id);

	it.each(['official', 'corrected'] as const)(
		'stores, in %s mode, exactly the scores scoreCases gives for the same input',
		async (mode) => {
			const ids = await modelIds();
			const run = await createRun(
				h.db,
				newRunSchema.parse({ modelIds: ids.map(String), mode, embedder: 'hash:64' }),
				userId
			);
			expect(run).toMatchObject({ state: 'queued', progressTotal: 28, mode, embedder: 'hash:64' });

			expect(await executeRun(h.db, run.id)).toBe('done');

			// The same cases built independently from the imported records and raw outputs.
			const items = await h.db.select().from(qaItem);
			const recordOf = new Map(
				items.map((it) => [it.id, records.find((r) => r.question === it.question)!])
			);
			const responses = await h.db
				.select()
				.from(response)
				.orderBy(asc(response.modelId), asc(response.itemId));
			const expected = await scoreCases(
				responses.map((r) => {
					const item = recordOf.get(r.itemId)!;
					return { id: String(r.id), type: item.type as TaskType, item, response: r.raw };
				}),
				{ qaRecords: records, mode, embedder: await createEmbedder('hash:64') }
			);
			const stored = await h.db.select().from(score).where(eq(score.runId, run.id));
			expect(stored).toHaveLength(28);
			for (const item of expected.items) {
				const row = stored.find((s) => String(s.responseId) === item.id)!;
				const { itemVersionId, ...metrics } = row.metrics as Record<string, unknown>;
				expect(metrics).toEqual(item.score);
				expect(row.value).toBe(headlineValue(item));
				expect(itemVersionId).toBe(items.find((it) => it.id === row.itemId)!.currentVersionId);
			}

			const [done] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
			expect(done).toMatchObject({
				state: 'done',
				progressDone: 28,
				progressTotal: 28,
				error: null,
				scorerVersion: expected.meta.scorerVersion,
				idfCorpusSize: expected.meta.idfCorpusSize,
				baseline: expected.meta.baseline
			});
			expect(done.idfCorpusSize).toBeGreaterThan(0);
			const summary = done.summary as RunSummary;
			expect(summary.models.map((m) => [m.name, m.responses])).toEqual([
				['strong', 14],
				['weak', 14]
			]);
			for (const m of summary.models) {
				const mine = responses.filter((r) => r.modelId === m.modelId).map((r) => String(r.id));
				const agg = aggregateItems(
					expected.items.filter((i) => mine.includes(i.id)),
					mode
				);
				expect(m.leaderboard).toEqual(agg.leaderboard);
			}
			const [strong, weak] = summary.models;
			expect(strong.leaderboard.tfAcc).toBe(1);
			expect(strong.leaderboard.mcAcc).toBe(1);
			expect(weak.leaderboard.mcAcc).toBe(0);
			expect(strong.leaderboard.overall).toBeGreaterThan(weak.leaderboard.overall);
		}
	);

	it('summarises distributions per model and type and exports CSV naming mode and embedder', async () => {
		const ids = await modelIds();
		const run = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:64' },
			userId
		);
		await executeRun(h.db, run.id);
		const boxes = await scoreDistributions(h.db, run.id);
		expect(boxes).toHaveLength(10);
		const stored = await h.db.select().from(score).where(eq(score.runId, run.id));
		for (const b of boxes) {
			const values = stored
				.filter((s) => s.modelId === b.modelId && s.type === b.type)
				.map((s) => s.value)
				.sort((a, c) => a - c);
			expect(b.n).toBe(2);
			expect([b.min, b.max]).toEqual([values[0], values[1]]);
			expect(b.median).toBeCloseTo((values[0] + values[1]) / 2, 12);
			expect(b.q1).toBeCloseTo(values[0] + 0.25 * (values[1] - values[0]), 12);
		}
		const shown = (await getRun(h.db, run.id))!;
		const csv = parseCsv(scoresCsv(shown, await runScores(h.db, run.id)));
		expect(csv).toHaveLength(29);
		const [head, first] = csv;
		expect(head.slice(0, 5)).toEqual(['run_id', 'mode', 'embedder', 'scorer_version', 'model']);
		expect(first.slice(0, 5)).toEqual([String(run.id), 'official', 'hash:64', '1.0.0', 'strong']);
		// Every row names the corpus the run scored against.
		expect(head.slice(-2)).toEqual(['corpus', 'corpus_digest']);
		expect(first.slice(-2)).toEqual([shown.corpus!.label, run.corpusDigest]);
		expect(shown.corpus!.label).toMatch(
			/^14 item versions recorded at .* UTC, digest [0-9a-f]{12}$/
		);
	});

	it('marks the run failed with a clear message when the MiniLM weights are missing', async () => {
		const empty = mkdtempSync(join(tmpdir(), 'no-minilm-'));
		vi.stubEnv('SCORING_MODEL_DIR', empty);
		vi.stubEnv('SCORING_ALLOW_DOWNLOAD', '');
		const run = await createRun(
			h.db,
			{ modelIds: await modelIds(), mode: 'official', embedder: 'minilm' },
			userId
		);
		expect(await executeRun(h.db, run.id)).toBe('failed');
		const [failed] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
		expect(failed.state).toBe('failed');
		expect(failed.error).toContain('MiniLM weights');
		expect(failed.error).toContain(empty);
		expect(failed.error).toContain('SCORING_MODEL_DIR');
		expect(failed.finishedAt).not.toBeNull();
		expect(await h.db.select().from(score)).toHaveLength(0);
	});

	it('runs a run once: a repeated execution of a finished run stores nothing more', async () => {
		const ids = await modelIds();
		const run = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:8' },
			userId
		);
		expect(await executeRun(h.db, run.id)).toBe('done');
		expect(await executeRun(h.db, run.id)).toBe('skipped');
		expect(await h.db.select().from(score)).toHaveLength(28);
	});

	it('takes over a run whose worker stopped heartbeating, and leaves a live one alone', async () => {
		const ids = await modelIds();
		const run = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:8' },
			userId
		);
		// A worker took the run (attempt 1) and is alive: its heartbeat is fresh.
		await h.db
			.update(scoringRun)
			.set({ state: 'running', attempt: 1, heartbeatAt: new Date() })
			.where(eq(scoringRun.id, run.id));
		expect(await executeRun(h.db, run.id, {}, { seconds: 60 })).toBe('skipped');
		// Its process died two minutes ago: the run is taken over and completed once.
		await h.db
			.update(scoringRun)
			.set({ heartbeatAt: new Date(Date.now() - 120_000) })
			.where(eq(scoringRun.id, run.id));
		expect(await executeRun(h.db, run.id, {}, { seconds: 60 })).toBe('done');
		const [after] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
		expect(after).toMatchObject({ state: 'done', attempt: 2, progressDone: 28 });
		expect(await h.db.select().from(score)).toHaveLength(28);
	});

	it('stores nothing for an attempt that lost the run to another worker', async () => {
		const ids = await modelIds();
		const run = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:8' },
			userId
		);
		// The first attempt stalls (a long pause) just before it stores its results, and another
		// worker takes the run over meanwhile: the stalled attempt must not finish the run.
		let reachedStore!: () => void;
		const atStore = new Promise<void>((r) => (reachedStore = r));
		let resume!: () => void;
		const resumed = new Promise<void>((r) => (resume = r));
		const stallingDb = new Proxy(h.db, {
			get(target, property, receiver) {
				if (property !== 'transaction') return Reflect.get(target, property, receiver);
				return async (...args: Parameters<typeof target.transaction>) => {
					reachedStore();
					await resumed;
					return target.transaction(...args);
				};
			}
		});
		const stalled = executeRun(stallingDb, run.id, {}, { seconds: 60 });
		await atStore;
		await h.db
			.update(scoringRun)
			.set({ attempt: 7, heartbeatAt: new Date() })
			.where(eq(scoringRun.id, run.id));
		resume();
		expect(await stalled).toBe('superseded');
		expect(await h.db.select().from(score)).toHaveLength(0);
		const [after] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
		expect(after).toMatchObject({ state: 'running', attempt: 7 });
	});

	it('hands a run back to the queue when its process stops', async () => {
		const ids = await modelIds();
		const run = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:8' },
			userId
		);
		const stopping = new AbortController();
		stopping.abort();
		await expect(
			executeRun(h.db, run.id, {}, { seconds: 60, signal: stopping.signal })
		).rejects.toThrow(RunHandedBack);
		const [after] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
		expect(after).toMatchObject({ state: 'queued', attempt: 1 });
		expect(await h.db.select().from(score)).toHaveLength(0);
		expect(await executeRun(h.db, run.id)).toBe('done');
	});

	/** Every score of a run keyed by response, with the run's numbers. */
	async function outcome(runId: number) {
		const [run] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, runId));
		const rows = await h.db
			.select()
			.from(score)
			.where(eq(score.runId, runId))
			.orderBy(asc(score.responseId));
		return {
			baseline: run.baseline,
			idfCorpusSize: run.idfCorpusSize,
			leaderboards: (run.summary as RunSummary).models.map((m) => m.leaderboard),
			scores: rows.map((r) => ({ responseId: r.responseId, value: r.value, metrics: r.metrics }))
		};
	}

	it('re-runs a run on its recorded corpus with identical numbers after an unrelated import', async () => {
		// A model whose open-ended answers half match, so its scores depend on the IDF weights.
		const partial = TYPES.map((t) => {
			const inputs = records.filter((r) => r.type === t);
			const responses = inputs.map((r) =>
				t === 'short_answer' || t === 'multi_hop' || t === 'short_inverse'
					? `${String(r.answer ?? r.incorrect_explanation)
							.split(' ')
							.slice(0, 3)
							.join(' ')} measured in the clinic`
					: t === 'multi_hop_inverse'
						? 'Step 2. Thiazides change uric acid handling in the kidney.'
						: 'True'
			);
			return { fileName: `${t}.json`, text: JSON.stringify({ inputs, responses }) };
		});
		await importResponses(h.db, partial, { actor, model: 'partial' });
		const ids = await modelIds();
		const first = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:64', corpus: { kind: 'items' } },
			userId
		);
		expect(await executeRun(h.db, first.id)).toBe('done');
		const before = await outcome(first.id);
		const recorded = await h.db
			.select()
			.from(scoringRunCorpus)
			.where(eq(scoringRunCorpus.runId, first.id));
		expect(recorded).toHaveLength(records.length);

		// 35 unrelated items arrive in the same dataset (new questions, new answers).
		const unrelated = TYPES.flatMap((t) =>
			[3, 4, 5, 6, 7].map((n) => {
				const r = validRecord(t, n);
				if (typeof r.answer === 'string' && t !== 'true_false')
					r.answer = `Unrelated answer ${n} about renal tubular acidosis and potassium.`;
				return r;
			})
		);
		expect(unrelated).toHaveLength(35);
		await importQaFiles(h.db, [{ fileName: 'more.json', text: JSON.stringify(unrelated) }], {
			actor
		});

		const again = await rerunRun(h.db, first.id, userId);
		expect(again).toMatchObject({
			rerunOf: first.id,
			corpusKind: 'items',
			corpusDigest: first.corpusDigest,
			corpusSize: records.length
		});
		expect(await executeRun(h.db, again.id)).toBe('done');
		const repeated = await outcome(again.id);
		expect(repeated).toEqual(before);
		expect(repeated.scores.length).toBe(42);

		// A run on the current items now has a larger corpus and different numbers.
		const current = await createRun(
			h.db,
			{ modelIds: ids, mode: 'official', embedder: 'hash:64', corpus: { kind: 'items' } },
			userId
		);
		expect(current.corpusSize).toBe(records.length + 35);
		expect(current.corpusDigest).not.toBe(first.corpusDigest);
		expect(await executeRun(h.db, current.id)).toBe('done');
		const drifted = await outcome(current.id);
		expect(drifted.idfCorpusSize).toBeGreaterThan(before.idfCorpusSize!);
		expect(drifted.scores).not.toEqual(before.scores);

		// The run says which corpus it used.
		const shown = await getRun(h.db, again.id);
		expect(shown!.corpus).toMatchObject({
			kind: 'items',
			size: records.length,
			digest: first.corpusDigest,
			label: expect.stringMatching(
				new RegExp(
					`^${records.length} item versions recorded at .+, digest ${first.corpusDigest!.slice(0, 12)}`
				)
			)
		});
	});

	it('scores against a snapshot: only its items, at their frozen versions', async () => {
		const items = await h.db.select().from(qaItem).orderBy(asc(qaItem.id));
		const frozen = items.filter((i) => i.question.includes('(1)'));
		expect(frozen).toHaveLength(7);
		const [snap] = await h.db
			.insert(snapshot)
			.values({
				datasetId: frozen[0].datasetId,
				name: 'bench-1',
				settings: {},
				composition: [],
				itemCount: frozen.length,
				createdBy: userId
			})
			.returning();
		await h.db.insert(snapshotItem).values(
			frozen.map((i) => ({
				snapshotId: snap.id,
				itemId: i.id,
				itemVersionId: i.currentVersionId!,
				finalRelevance: 5,
				provenance: 'single' as const
			}))
		);
		const run = await createRun(
			h.db,
			newRunSchema.parse({
				modelIds: (await modelIds()).map(String),
				mode: 'corrected',
				embedder: 'hash:64',
				corpus: `snapshot:${snap.id}`
			}),
			userId
		);
		expect(run).toMatchObject({ corpusKind: 'snapshot', snapshotId: snap.id, corpusSize: 7 });
		expect(run.progressTotal).toBe(14);
		expect(await executeRun(h.db, run.id)).toBe('done');
		const stored = await h.db.select().from(score).where(eq(score.runId, run.id));
		expect(new Set(stored.map((s) => s.itemId))).toEqual(new Set(frozen.map((i) => i.id)));
		const [done] = await h.db.select().from(scoringRun).where(eq(scoringRun.id, run.id));
		expect((done.summary as RunSummary).warnings).toContainEqual(
			expect.stringContaining('14 responses to items outside the corpus were not scored')
		);
		expect((await getRun(h.db, run.id))!.corpus!.label).toBe('snapshot bench-1 (7 item versions)');
		await expect(
			createRun(
				h.db,
				{
					modelIds: [1],
					mode: 'official',
					embedder: 'hash:8',
					corpus: { kind: 'snapshot', snapshotId: 9999 }
				},
				userId
			)
		).rejects.toThrow('There is no snapshot 9999.');
	});

	it('validates the choice of models, mode and embedder', async () => {
		expect(
			newRunSchema.safeParse({ modelIds: [], mode: 'official', embedder: 'hash:64' }).success
		).toBe(false);
		expect(
			newRunSchema.safeParse({ modelIds: [1], mode: 'mixed', embedder: 'hash:64' }).success
		).toBe(false);
		expect(
			newRunSchema.safeParse({ modelIds: [1], mode: 'official', embedder: 'hash:0' }).success
		).toBe(false);
		expect(
			newRunSchema.safeParse({ modelIds: [1], mode: 'official', embedder: 'bert' }).success
		).toBe(false);
		expect(
			newRunSchema.parse({ modelIds: ['2', '1', '2'], mode: 'corrected', embedder: 'minilm' })
		).toEqual({
			modelIds: [1, 2],
			mode: 'corrected',
			embedder: 'minilm',
			corpus: { kind: 'items' }
		});
		expect(
			newRunSchema.parse({
				modelIds: ['1'],
				mode: 'official',
				embedder: 'hash:8',
				corpus: 'snapshot:3'
			}).corpus
		).toEqual({ kind: 'snapshot', snapshotId: 3 });
		expect(
			newRunSchema.safeParse({
				modelIds: ['1'],
				mode: 'official',
				embedder: 'hash:8',
				corpus: 'snapshot:x'
			}).success
		).toBe(false);
		await expect(
			createRun(h.db, { modelIds: [9999], mode: 'official', embedder: 'hash:8' }, userId)
		).rejects.toThrow(DomainError);
	});
});
