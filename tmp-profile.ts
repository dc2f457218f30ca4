import postgres from 'postgres';
import { migrateDatabase, openDatabase } from '$lib/server/db/client';
import { createScratchDatabase } from '$lib/server/db/scratch';
import { claimNext } from '$lib/server/domain/review/queue';
import { submitAndNext } from '$lib/server/domain/review/reviews';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { seedUsers } from '$lib/server/fixtures/review';
import { seedBenchItems } from './src/cli/bench/review';
import { randomId } from '$lib/server/ids';

const scratch = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', { prefix: 'i12rev_prof' });
const handle = await openDatabase(scratch.url, { max: 12 });
try {
	await migrateDatabase(handle);
	const db = handle.db;
	const datasetId = await seedBenchItems(db);
	const users = await seedUsers(db, 50);
	await setSecondaryShare(db, users[0].id, { datasetId, share: 0.45, seed: 'bench' });
	const deadline = performance.now() + Number(process.env.SECS ?? 5) * 1000;
	let n = 0;
	await Promise.all(users.slice(1, 11).map(async (u) => {
		let lease = await claimNext(db, u.id);
		while (lease && performance.now() < deadline) {
			lease = (await submitAndNext(db, u.id, { taskId: lease.taskId, key: lease.leaseToken, verdict: 'correct', relevance: 3 })).next;
			n++;
		}
	}));
	console.log('warm', n);
	const raw = postgres(scratch.url, { onnotice: (m) => console.log(m.message) });
	await raw`load 'auto_explain'`;
	await raw`set auto_explain.log_min_duration = 2`;
	await raw`set auto_explain.log_nested_statements = on`;
	await raw`set auto_explain.log_analyze = on`;
	await raw`set auto_explain.log_level = notice`;
	const u = users[0];
	let [l] = await raw`select * from review_claim_next(${u.id}, now(), ${randomId()})`;
	for (let i = 0; i < 30; i++) {
	console.log('---- submit', i);
	const t = performance.now();
	let t1 = 0;
	await raw.begin(async (tx) => {
	[l] = await tx`select * from review_submit_and_next(${u.id}, ${l.task_id}, ${l.lease_token}, 'correct', 3, null, null, null, null, 1000, now(), ${randomId()})`;
	t1 = performance.now();
	});
	const t2 = performance.now();
	let t3 = 0;
	await raw.begin(async (tx) => {
	const [task] = await tx`select id, item_id from review_task where state = 'pending' and round = 'primary' order by round, sort_key, id limit 1 for update skip locked`;
	await tx`insert into review (task_id, item_id, item_version_id, round, reviewer_id, verdict, relevance, idempotency_key) values (${task.id}, ${task.item_id}, (select current_version_id from qa_item where id = ${task.item_id}), 'primary', ${u.id}, 'correct', 3, ${randomId()})`;
	await tx`update review_task set state = 'done', done_by = ${u.id}, done_at = now() where id = ${task.id}`;
	});
	console.log('fn', (t1 - t).toFixed(1), 'commit', (t2 - t1).toFixed(1), 'baseline', (performance.now() - t2).toFixed(1));
	}
	await raw.end();
} finally {
	await handle.close();
	await scratch.drop();
}
