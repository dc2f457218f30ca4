import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, rowsOf, type Db } from '$lib/server/db/client';
import { ITEM_SORTS, listItems, parseItemQuery } from '$lib/server/domain/items/items';
import { encodeCursor, orderBy, sortValue, type ItemSort } from '$lib/server/domain/items/keyset';
import { adminOverview } from '$lib/server/domain/items/overview';
import { verificationProgress } from '$lib/server/domain/verification/progress';
import { seedUsers } from '$lib/server/fixtures/review';
import { seedVerification } from '$lib/server/fixtures/verification';
import { benchDatabase } from './database';
import { seedBenchItems } from './seed';
import type { Io } from '../io';

const ITEMS = 50_000;
const REVIEWERS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeIt(runs: number, work: () => Promise<unknown>) {
	for (let i = 0; i < 3; i++) await work();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const s = performance.now();
		await work();
		times.push(performance.now() - s);
	}
	times.sort((a, b) => a - b);
	return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * A job and its floor timed in turn (job, floor, job, …), so a change in the machine's load
 * falls on both alike.
 */
async function timePair(runs: number, work: () => Promise<unknown>, floor: () => Promise<unknown>) {
	for (let i = 0; i < 3; i++) await Promise.all([work(), floor()]);
	const times: number[] = [];
	const floors: number[] = [];
	for (let i = 0; i < runs; i++) {
		let s = performance.now();
		await work();
		times.push(performance.now() - s);
		s = performance.now();
		await floor();
		floors.push(performance.now() - s);
	}
	times.sort((a, b) => a - b);
	floors.sort((a, b) => a - b);
	return {
		p50: percentile(times, 50),
		p95: percentile(times, 95),
		floorP50: percentile(floors, 50),
		floorP95: percentile(floors, 95)
	};
}

/** The target of the pages (issue "speed and scale, second pass"): p95 under 50 ms. */
const TARGET_P95_MS = 50;

/**
 * Common words, each searched in every sort and direction: "case" is in every question, "what"
 * starts half of them ("What is …", "What dose …"), so sorted by question from the other end a
 * search passes the other half ("Which …") before its first match.
 */
const COMMON_WORDS = ['case', 'what'];

const ITEM_PAGES: [string, string][] = [
	['first page', ''],
	['last page', 'page=last'],
	['search "metformin"', 'q=metformin'],
	['search "case 4242"', 'q=case+4242'],
	['search "lithium" by question', 'q=lithium&sort=question'],
	['search "levothyroxine" (answers)', 'q=levothyroxine&sort=updatedAt&dir=desc'],
	['filter held', 'held=yes'],
	['filter outcome verified, relevance desc', 'outcome=verified&sort=finalRelevance&dir=desc'],
	['filter state + type', 'status=awaiting_primary&type=multi_hop&sort=updatedAt'],
	['filter passage missing', 'passage=missing'],
	['filter verdict none', 'verdict=none&sort=question'],
	['filter provenance adjudicated', 'provenance=adjudicated&sort=updatedAt&dir=desc']
];

/** The cursor of the row half-way down the table in `sort` (a deep page's position). */
async function middleCursor(db: Db, sort: ItemSort, dir: 'asc' | 'desc') {
	const [row] = rowsOf<{ id: number; value: string | null }>(
		await db.execute(
			sql`select "qa_item"."id" as id, ${sortValue(sort)} as value from "qa_item" order by ${sql.join(orderBy(sort, dir), sql`, `)} offset ${ITEMS / 2} limit 1`
		)
	);
	return encodeCursor(sort, row);
}

/**
 * Server-side data work of the organiser pages at 50,000 items on PostgreSQL: the item table's
 * pages (first, last, each sort, search, filters), the overview and the progress page, each
 * through the domain function its load calls, p50 and p95 over repeated runs.
 */
export async function runPagesBench(io: Io): Promise<void> {
	io.stdout(
		`Organiser pages (${ITEMS.toLocaleString('en')} items, about half reviewed, PostgreSQL; ${RUNS} runs each)`
	);
	const scratch = await benchDatabase(io, 'cliniq_bench_pages');
	if (!scratch) return;
	const handle = await openDatabase(scratch.url, { max: 4 });
	try {
		await migrateDatabase(handle);
		const db = handle.db;
		const t = performance.now();
		await seedBenchItems(db, ITEMS);
		const users = await seedUsers(db, REVIEWERS);
		await seedVerification(
			db,
			users.map((u) => u.id)
		);
		io.stdout(`  setup ${((performance.now() - t) / 1000).toFixed(1)} s`);
		const line = (label: string, r: { p50: number; p95: number }) =>
			io.stdout(
				`  ${label.padEnd(44)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms`
			);
		const page = (q: string) => {
			const query = parseItemQuery(new URLSearchParams(q));
			return () => listItems(db, query);
		};
		for (const [label, q] of ITEM_PAGES) line(`items: ${label}`, await timeIt(RUNS, page(q)));
		for (const sort of ITEM_SORTS) {
			for (const dir of ['asc', 'desc'] as const) {
				const by = `sort=${sort}&dir=${dir}`;
				const middle = await middleCursor(db, sort, dir);
				line(`items: ${sort} ${dir}, first`, await timeIt(RUNS, page(by)));
				line(
					`items: ${sort} ${dir}, after the middle`,
					await timeIt(RUNS, page(`${by}&after=${encodeURIComponent(middle)}`))
				);
				line(
					`items: ${sort} ${dir}, before the middle`,
					await timeIt(RUNS, page(`${by}&before=${encodeURIComponent(middle)}`))
				);
				line(`items: ${sort} ${dir}, last`, await timeIt(RUNS, page(`${by}&page=last`)));
			}
		}
		line('overview', await timeIt(RUNS, () => adminOverview(db)));

		// The targets, each beside its floor measured in turn with it.
		const targeted = (
			label: string,
			r: { p50: number; p95: number; floorP50: number; floorP95: number }
		) =>
			io.stdout(
				`  ${label.padEnd(44)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  floor p95 ${r.floorP95.toFixed(1).padStart(5)} ms  ${(r.p95 / r.floorP95).toFixed(1).padStart(5)}×  target < ${TARGET_P95_MS} ms p95: ${r.p95 < TARGET_P95_MS ? 'met' : 'MISSED'}`
			);
		// Floor of the progress page: bare counts of the rows it counts (every item, every first
		// revision, the tasks waiting or in hand), in one statement.
		const progressFloor = () =>
			db.execute(sql`select (select count(*) from qa_item) as items,
				(select count(*) from review where revision = 1) as reviews,
				(select count(*) from review_task where state in ('pending', 'leased')) as tasks`);
		targeted(
			'verification progress',
			await timePair(RUNS, () => verificationProgress(db), progressFloor)
		);
		// Floor of a search: a page of the same sort without the search, in bare SQL.
		let worst = 0;
		for (const word of COMMON_WORDS) {
			for (const sort of ITEM_SORTS) {
				for (const dir of ['asc', 'desc'] as const) {
					const floor = () =>
						db.execute(
							sql`select * from "qa_item" order by ${sql.join(orderBy(sort, dir), sql`, `)} limit 51`
						);
					const r = await timePair(RUNS, page(`q=${word}&sort=${sort}&dir=${dir}`), floor);
					worst = Math.max(worst, r.p95);
					targeted(`search "${word}" by ${sort} ${dir}`, r);
				}
			}
		}
		io.stdout(
			`  common-word search, every sort: worst p95 ${worst.toFixed(1)} ms  target < ${TARGET_P95_MS} ms p95: ${worst < TARGET_P95_MS ? 'met' : 'MISSED'}`
		);
	} finally {
		await handle.close();
		await scratch.drop();
	}
}
