import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, type Db } from '$lib/server/db/client';
import { claimNext } from '$lib/server/domain/review/queue';
import { submitAndNext } from '$lib/server/domain/review/reviews';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { benchDatabase } from './database';
import { seedUsers } from '$lib/server/fixtures/review';

const ITEMS = 50_000;
const REVIEWERS = 50;
const DURATION_MS = 20_000;

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** 50,000 items of all seven types in one dataset, written with set-based SQL (seconds, not minutes). */
export async function seedBenchItems(db: Db): Promise<number> {
	await db.execute(sql`insert into dataset (name) values ('bench')`);
	await db.execute(sql`
		insert into qa_item (dataset_id, item_key, type, paragraph_id, question)
		select d.id, 'bench-' || g, (enum_range(null::qa_type))[1 + g % 7], 'bench-p' || g,
			'Bench question ' || g || '?'
		from generate_series(1, ${ITEMS}) g, dataset d where d.name = 'bench'`);
	await db.execute(sql`
		insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
		select id, 1, jsonb_build_object('question', question, 'type', type, 'answer', 'True'),
			md5(id::text), type, question, 'True', 'import'
		from qa_item`);
	await db.execute(sql`
		update qa_item i set current_version_id = v.id from qa_item_version v where v.item_id = i.id`);
	// What an import does for its items: one primary review task each.
	await db.execute(sql`insert into review_task (item_id, round) select id, 'primary' from qa_item`);
	await db.execute(sql`analyze`);
	const [{ id }] = (await db.execute(
		sql`select id from dataset where name = 'bench'`
	)) as unknown as {
		id: number;
	}[];
	return id;
}

/**
 * Server time of "submit review + next item" (the review screen's submit action without HTTP)
 * with 50,000 items and 50 concurrent reviewers on PostgreSQL: median and p95.
 */
export async function runReviewBench(io: {
	stdout(s: string): void;
	stderr(s: string): void;
}): Promise<void> {
	io.stdout(
		`Review queue: submit review + next item (${ITEMS.toLocaleString('en')} items, ${REVIEWERS} concurrent reviewers, PostgreSQL)`
	);
	const scratch = await benchDatabase(io, 'cliniq_bench_review');
	if (!scratch) return;
	const handle = await openDatabase(scratch.url, { max: REVIEWERS + 2 });
	try {
		await migrateDatabase(handle);
		const db = handle.db;
		let t = performance.now();
		const datasetId = await seedBenchItems(db);
		const users = await seedUsers(db, REVIEWERS);
		// Default share: 45 % of the items get a secondary task after their primary review.
		await setSecondaryShare(db, users[0].id, { datasetId, share: 0.45, seed: 'bench' });
		io.stdout(`  setup ${((performance.now() - t) / 1000).toFixed(1)} s`);

		const times: number[] = [];
		const deadline = performance.now() + DURATION_MS;
		t = performance.now();
		await Promise.all(
			users.map(async (u) => {
				let lease = await claimNext(db, u.id);
				while (lease && performance.now() < deadline) {
					const s = performance.now();
					const { next } = await submitAndNext(db, u.id, {
						taskId: lease.taskId,
						key: lease.leaseToken,
						verdict: 'correct',
						relevance: 1 + (lease.taskId % 5),
						startedAt: Date.now() - 30_000
					});
					times.push(performance.now() - s);
					lease = next;
				}
			})
		);
		const elapsed = (performance.now() - t) / 1000;
		times.sort((a, b) => a - b);
		io.stdout(
			`  ${times.length.toLocaleString('en')} submissions in ${elapsed.toFixed(1)} s (${Math.round(times.length / elapsed)}/s): median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`
		);
	} catch (e) {
		io.stderr(`review bench failed: ${(e as Error).message}`);
		throw e;
	} finally {
		await handle.close();
		await scratch.drop();
	}
}
