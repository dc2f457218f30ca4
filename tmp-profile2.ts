import postgres from 'postgres';
import { migrateDatabase, openDatabase } from '$lib/server/db/client';
import { createScratchDatabase } from '$lib/server/db/scratch';
import { claimNext } from '$lib/server/domain/review/queue';
import { submitAndNext } from '$lib/server/domain/review/reviews';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { seedUsers } from '$lib/server/fixtures/review';
import { seedBenchItems } from './src/cli/bench/review';

const W = Number(process.env.W ?? 20);
const scratch = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', { prefix: 'i12rev_prof' });
const handle = await openDatabase(scratch.url, { max: W + 1 });
const mon = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1 });
try {
	await migrateDatabase(handle);
	const db = handle.db;
	const datasetId = await seedBenchItems(db);
	const users = await seedUsers(db, W);
	await setSecondaryShare(db, users[0].id, { datasetId, share: 0.45, seed: 'bench' });
	for (const workers of [1, W]) {
		const deadline = performance.now() + 4000;
		let n = 0;
		const waits: Record<string, number> = {};
		let sampling = true;
		const sampler = (async () => {
			while (sampling) {
				const rows = await mon`select coalesce(wait_event_type,'-') || ':' || coalesce(wait_event,'-') || ':' || state as w from pg_stat_activity where datname = ${scratch.name}`;
				for (const r of rows) waits[r.w] = (waits[r.w] ?? 0) + 1;
				await new Promise((r) => setTimeout(r, 20));
			}
		})();
		const t0 = performance.now();
		await Promise.all(users.slice(0, workers).map(async (u) => {
			let lease = await claimNext(db, u.id);
			while (lease && performance.now() < deadline) {
				lease = (await submitAndNext(db, u.id, { taskId: lease.taskId, key: lease.leaseToken, verdict: 'correct', relevance: 3 })).next;
				n++;
			}
		}));
		sampling = false; await sampler;
		console.log(workers, 'workers', (n / ((performance.now() - t0) / 1000)).toFixed(0), '/s', JSON.stringify(waits));
	}
} finally {
	await mon.end();
	await handle.close();
	await scratch.drop();
}
