import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type postgres from 'postgres';
import { randomId } from '$lib/server/ids';
import { migrateDatabase, openDatabase, rowsOf, type Db } from '$lib/server/db/client';
import { claimNext } from '$lib/server/domain/review/queue';
import { submitAndNext } from '$lib/server/domain/review/reviews';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { benchDatabase } from './database';
import { seedBenchItems } from './seed';
import { backendCpu, cpuBetween, dbCpuLine } from './server-cpu';
import { seedUsers } from '$lib/server/fixtures/review';

const ITEMS = 50_000;
const REVIEWERS = 50;

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Seconds each phase runs (BENCH_SECONDS, default 10). */
function phaseSeconds(): number {
	const n = Number(process.env.BENCH_SECONDS);
	return Number.isFinite(n) && n > 0 ? n : 10;
}

interface PhaseResult {
	actions: number;
	seconds: number;
	times: number[];
	statements: number;
	cpuMs: number;
	/** CPU time of the database's server processes, when the server runs on this machine. */
	dbCpuMs: number | null;
}

/** Runs `worker` once per reviewer until the deadline; times each action and counts statements. */
async function phase(
	db: Db,
	counter: { n: number },
	seconds: number,
	workers: ((deadline: number, time: (ms: number) => void) => Promise<void>)[]
): Promise<PhaseResult> {
	const times: number[] = [];
	const serverCpu = backendCpu(async (text) => rowsOf(await db.execute(sql.raw(text))));
	const db0 = await serverCpu();
	const statements0 = counter.n;
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const deadline = t0 + seconds * 1000;
	await Promise.all(workers.map((w) => w(deadline, (ms) => times.push(ms))));
	const elapsed = (performance.now() - t0) / 1000;
	const cpu = process.cpuUsage(cpu0);
	const statements = counter.n - statements0;
	const db1 = await serverCpu();
	times.sort((a, b) => a - b);
	return {
		actions: times.length,
		seconds: elapsed,
		times,
		statements,
		cpuMs: (cpu.user + cpu.system) / 1000,
		dbCpuMs: cpuBetween(db0, db1)
	};
}

function describe(label: string, r: PhaseResult) {
	const rate = r.actions / r.seconds;
	return (
		`  ${label}: ${r.actions.toLocaleString('en')} in ${r.seconds.toFixed(1)} s = ${rate.toFixed(0)}/s; ` +
		`p50 ${percentile(r.times, 50).toFixed(1)} ms, p95 ${percentile(r.times, 95).toFixed(1)} ms; ` +
		`${(r.statements / r.actions).toFixed(2)} statements per action; ` +
		`CPU per action: Node ${(r.cpuMs / r.actions).toFixed(2)} ms` +
		(r.dbCpuMs === null ? '' : `, PostgreSQL ${(r.dbCpuMs / r.actions).toFixed(2)} ms`)
	);
}

/**
 * One action of the floor of "submit review + next item": BEGIN; claim the next primary task with
 * FOR UPDATE SKIP LOCKED; insert the review; mark the task done; COMMIT, through the bare driver.
 * False when no task is left. The review and HTTP benches measure the portal beside it.
 */
export async function reviewFloorAction(raw: postgres.Sql, reviewerId: string): Promise<boolean> {
	return raw.begin(async (tx) => {
		const [task] = await tx<{ id: number; item_id: number }[]>`
			select id, item_id from review_task
			where state = 'pending' and not awaits_passage and round = 'primary'
			order by round, sort_key, id limit 1
			for update skip locked`;
		if (!task) return false;
		await tx`
			insert into review (task_id, item_id, item_version_id, round, reviewer_id,
				verdict, relevance, idempotency_key)
			values (${task.id}, ${task.item_id},
				(select current_version_id from qa_item where id = ${task.item_id}),
				'primary', ${reviewerId}, 'correct', ${1 + (task.id % 5)}, ${randomId()})`;
		await tx`
			update review_task set state = 'done', done_by = ${reviewerId}, done_at = now()
			where id = ${task.id}`;
		return true;
	});
}

/**
 * "Submit review + next item" (the review screen's submit action without HTTP) with 50,000 items
 * and 50 concurrent reviewers on PostgreSQL, beside a raw-driver baseline of the same job through
 * the same driver and pool (BEGIN; claim with FOR UPDATE SKIP LOCKED; insert the review; mark the
 * task done; COMMIT): rates, p50/p95, their ratio and the statements (round trips) per action,
 * counted at the driver.
 */
export async function runReviewBench(io: {
	stdout(s: string): void;
	stderr(s: string): void;
}): Promise<void> {
	const seconds = phaseSeconds();
	io.stdout(
		`Review queue: submit review + next item (${ITEMS.toLocaleString('en')} items, ${REVIEWERS} concurrent reviewers, 45 % secondary share, PostgreSQL, ${seconds} s per phase)`
	);
	const scratch = await benchDatabase(io, 'cliniq_bench_review');
	if (!scratch) return;
	const counter = { n: 0 };
	const handle = await openDatabase(scratch.url, {
		max: REVIEWERS + 2,
		onQuery: () => counter.n++
	});
	try {
		await migrateDatabase(handle);
		const db = handle.db;
		const t = performance.now();
		const datasetId = await seedBenchItems(db, ITEMS);
		const users = await seedUsers(db, REVIEWERS);
		// Default share: 45 % of the items get a secondary task after their primary review.
		await setSecondaryShare(db, users[0].id, { datasetId, share: 0.45, seed: 'bench' });
		io.stdout(`  setup ${((performance.now() - t) / 1000).toFixed(1)} s`);

		// The baseline: the minimum statements of the same job, through the same postgres.js pool.
		const raw = (db as unknown as { $client: postgres.Sql }).$client;
		const runBaseline = () =>
			phase(
				db,
				counter,
				seconds,
				users.map((u) => async (deadline, time) => {
					let more = true;
					while (more && performance.now() < deadline) {
						const s = performance.now();
						more = await reviewFloorAction(raw, u.id);
						time(performance.now() - s);
					}
				})
			);
		// Before and after the portal, so neither gets the fresher queue or the quieter minute.
		const before = await runBaseline();
		io.stdout(describe('raw-driver baseline (before)', before));
		// The baseline wrote its reviews directly: count them in the reviewers' tallies
		// (reviewer_tally_refresh: src/lib/server/db/functions/review.sql).
		await db.execute(sql`select reviewer_tally_refresh(${datasetId})`);

		// The portal: each reviewer claims an item, then submits and gets the next, as on the page.
		const leases = await Promise.all(users.map((u) => claimNext(db, u.id)));
		const portal = await phase(
			db,
			counter,
			seconds,
			users.map((u, i) => async (deadline, time) => {
				let lease = leases[i];
				while (lease && performance.now() < deadline) {
					const s = performance.now();
					const { next } = await submitAndNext(db, u.id, {
						taskId: lease.taskId,
						key: lease.leaseToken,
						verdict: 'correct',
						relevance: 1 + (lease.taskId % 5),
						startedAt: Date.now() - 30_000
					});
					time(performance.now() - s);
					lease = next;
				}
			})
		);
		io.stdout(describe('portal submit + next', portal));
		const claims = await phase(db, counter, Math.min(seconds, 3), [
			async (deadline, time) => {
				// Claim alone (the queue page's "start"): the reviewer's held lease comes back.
				while (performance.now() < deadline) {
					const s = performance.now();
					await claimNext(db, users[0].id);
					time(performance.now() - s);
				}
			}
		]);
		io.stdout(
			`  portal claim next alone: ${(claims.statements / claims.actions).toFixed(2)} statements per call`
		);

		const after = await runBaseline();
		io.stdout(describe('raw-driver baseline (after)', after));
		const baselineRate = (before.actions + after.actions) / (before.seconds + after.seconds);
		const baselineStatements =
			(before.statements + after.statements) / (before.actions + after.actions);
		const ratio = portal.actions / portal.seconds / baselineRate;
		io.stdout(
			`  portal / baseline: ${(100 * ratio).toFixed(0)} % of the baseline rate (${baselineRate.toFixed(0)}/s, both runs; target >= 50 %); ` +
				`statements per action ${(portal.statements / portal.actions).toFixed(2)} vs ${baselineStatements.toFixed(2)}`
		);
		const floorCpu =
			before.dbCpuMs === null || after.dbCpuMs === null ? null : before.dbCpuMs + after.dbCpuMs;
		io.stdout(
			dbCpuLine('review submit + next', portal, {
				actions: before.actions + after.actions,
				dbCpuMs: floorCpu
			})
		);
	} catch (e) {
		io.stderr(`review bench failed: ${(e as Error).message}`);
		throw e;
	} finally {
		await handle.close();
		await scratch.drop();
	}
}
