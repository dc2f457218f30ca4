import { performance } from 'node:perf_hooks';
import { migrateDatabase, openDatabase } from '$lib/server/db/client';
import { claimNext } from '$lib/server/domain/review/queue';
import { submitAndNext } from '$lib/server/domain/review/reviews';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { benchDatabase } from './database';
import { seedBenchItems } from './seed';
import { seedUsers } from '$lib/server/fixtures/review';

const ITEMS = 50_000;
const REVIEWERS = 50;
const DURATION_MS = 20_000;

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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
		const datasetId = await seedBenchItems(db, ITEMS);
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
