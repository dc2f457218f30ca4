import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, rowsOf } from '$lib/server/db/client';
import { randomId } from '$lib/server/ids';
import { benchDatabase } from './database';
import { claimNext } from '$lib/server/domain/ranking/queue';
import { changeStudyState, createStudy } from '$lib/server/domain/ranking/studies';
import { submitRankingAndNext } from '$lib/server/domain/ranking/rankings';
import { insertUsers, seedRankingContent } from '$lib/server/fixtures/ranking';

const QUESTIONS = 5_000;
const MODELS = 7; // + the reference = 8 answers per question
const PHYSICIANS = 50;
const OPERATIONS = 3_000;

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Server time of "submit ranking + next question" with 5,000 questions × 8 answers and 50
 * concurrent physicians on PostgreSQL (BENCH_DATABASE_URL; a database of its own, dropped after).
 */
export async function runRankingBench(io: { stdout(s: string): void; stderr(s: string): void }) {
	const scratch = await benchDatabase(io, 'cliniq_bench_rank');
	if (!scratch) return;
	const handle = await openDatabase(scratch.url, { max: PHYSICIANS });
	try {
		await migrateDatabase(handle);
		const db = handle.db;
		let t = performance.now();
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
		io.stdout(
			`  ranking: seeded ${QUESTIONS.toLocaleString('en')} questions × ${MODELS + 1} answers and opened the study in ${((performance.now() - t) / 1000).toFixed(1)} s`
		);
		const times: number[] = [];
		let remaining = OPERATIONS;
		async function candidatesOf(publicId: string) {
			const rows = await db.execute(
				sql`select ac.public_id from assignment_candidate ac join assignment a on a.id = ac.assignment_id where a.public_id = ${publicId} order by ac.position`
			);
			return rowsOf<{ public_id: string }>(rows).map((r) => r.public_id);
		}
		async function physician(id: string) {
			let claim = await claimNext(db, study.id, id);
			while (claim.status === 'assigned' && remaining-- > 0) {
				// Reading the screen is not part of the measured action.
				const ids = await candidatesOf(claim.publicId);
				const start = performance.now();
				const result = await submitRankingAndNext(db, id, {
					assignmentId: claim.publicId,
					idempotencyKey: randomId(),
					timeOnTaskMs: 60_000,
					entries: ids.map((c, i) => ({
						candidateId: c,
						rank: i + 1,
						tag: i < 3 ? 'good' : 'okay'
					}))
				});
				if (result.duplicate) throw new Error('bench submission stored twice');
				claim = result.next;
				times.push(performance.now() - start);
			}
		}
		t = performance.now();
		await Promise.all(physicians.map(physician));
		const wall = (performance.now() - t) / 1000;
		times.sort((a, b) => a - b);
		io.stdout(
			`  ranking: submit ranking + next question, ${PHYSICIANS} concurrent physicians, ${times.length.toLocaleString('en')} submissions: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${Math.round(times.length / wall)} submissions/s)`
		);
	} finally {
		await handle.close();
		await scratch.drop();
	}
}
