import postgres from 'postgres';
import { migrateDatabase, openDatabase } from '$lib/server/db/client';
import { createScratchDatabase } from '$lib/server/db/scratch';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { seedUsers } from '$lib/server/fixtures/review';
import { seedBenchItems } from './src/cli/bench/review';
import { randomId } from '$lib/server/ids';

const W = Number(process.env.W ?? 20);
const scratch = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', { prefix: 'i12rev_prof' });
const handle = await openDatabase(scratch.url, { max: 2 });
const notices: string[] = [];
try {
	await migrateDatabase(handle);
	const db = handle.db;
	const datasetId = await seedBenchItems(db);
	const users = await seedUsers(db, W);
	await setSecondaryShare(db, users[0].id, { datasetId, share: 0.45, seed: 'bench' });
	const raw = postgres(scratch.url, { max: W, onnotice: (m) => notices.push(m.message) , connection: {
		track_functions: 'pl'
	} as any });
	const deadline = performance.now() + 6000;
	let n = 0;
	const t0 = performance.now();
	await Promise.all(users.map(async (u) => {
		let [l] = await raw`select * from review_claim_next(${u.id}, now(), ${randomId()})`;
		while (l?.task_id && performance.now() < deadline) {
			[l] = await raw`select * from review_submit_and_next(${u.id}, ${l.task_id}, ${l.lease_token}, 'correct', 3, null, null, null, null, 1000, now(), ${randomId()})`;
			n++;
		}
	}));
	console.log(n / ((performance.now() - t0) / 1000), '/s');
	await new Promise((r) => setTimeout(r, 1500));
	console.log(await raw`select funcname, calls, total_time / calls as total, self_time / calls as self from pg_stat_user_functions`);
	const counts: Record<string, number[]> = {};
	for (const m of notices) {
		const d = Number(/duration: ([\d.]+)/.exec(m)?.[1]);
		const q = (/Query Text: (.*)/.exec(m)?.[1] ?? '').slice(0, 90);
		(counts[q] ??= []).push(d);
	}
	for (const [q, ds] of Object.entries(counts)) console.log(ds.length, (ds.reduce((a, b) => a + b, 0) / ds.length).toFixed(1), q);
	const slow = notices.filter((m) => /FROM review_task t/.test(m)).slice(0, 2);
	console.log(slow.join('\n=====\n'));
	await raw.end();
} finally {
	await handle.close();
	await scratch.drop();
}
