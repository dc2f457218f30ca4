import { QA_TYPES } from '../../lib/constants';
import { performance } from 'node:perf_hooks';

import { migrateDatabase, openDatabase, type DatabaseHandle } from '$lib/server/db/client';
import { sql } from 'drizzle-orm';
import { exportItems, itemsCsv, listItems, parseItemQuery } from '$lib/server/domain/items/items';
import { adminOverview } from '$lib/server/domain/items/overview';
import { seedUsers } from '$lib/server/fixtures/review';
import { importQaFiles } from '$lib/server/domain/imports/qa-import';
import { benchDatabase } from './database';
import { validRecord } from '$lib/server/fixtures/records';
import type { Io } from '../io';

const N = 50_000;

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function benchOn(handle: DatabaseHandle, io: Io) {
	const records = Array.from({ length: N }, (_, i) => validRecord(QA_TYPES[i % 7], i + 1));
	const file = { fileName: 'bench.json', text: JSON.stringify(records) };
	const actor = { userId: null, label: 'bench' };
	let t = performance.now();
	await importQaFiles(handle.db, [file], { actor });
	const first = performance.now() - t;
	t = performance.now();
	await importQaFiles(handle.db, [file], { actor });
	const again = performance.now() - t;
	io.stdout(
		`  import ${N.toLocaleString('en')} QA items: ${(first / 1000).toFixed(2)} s (${Math.round(N / (first / 1000)).toLocaleString('en')} items/s); idempotent re-import ${(again / 1000).toFixed(2)} s`
	);
	// Verification under way: half the items done with a verdict, 1 % held by an open dispute.
	await handle.db.execute(sql`
		update qa_item set status = 'done', provenance = 'single',
			final_verdict = (case id % 3 when 0 then 'correct' when 1 then 'incorrect' else 'cannot_tell' end)::verdict,
			final_relevance = 1 + id % 5
		where id % 2 = 0`);
	const [bench] = await seedUsers(handle.db, 1);
	await handle.db.execute(sql`
		insert into dispute (item_id, item_version_id, raised_by, category, reason)
		select id, current_version_id, ${bench.id}, 'other', 'bench' from qa_item where id % 100 = 0`);
	const queries = [
		'sort=id',
		'sort=question&dir=desc&page=400',
		'type=list&sort=updatedAt&dir=desc',
		'q=hypothyroidism&sort=question',
		'status=awaiting_primary&type=multi_hop&page=50',
		'held=yes',
		'outcome=verified&sort=finalRelevance&dir=desc&page=20',
		'passage=missing&page=100'
	];
	for (const q of queries) {
		const times: number[] = [];
		for (let i = 0; i < 20; i++) {
			const s = performance.now();
			await listItems(handle.db, parseItemQuery(new URLSearchParams(q)));
			times.push(performance.now() - s);
		}
		times.sort((a, b) => a - b);
		io.stdout(
			`  item table page (${q}): median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`
		);
	}
	const overview: number[] = [];
	for (let i = 0; i < 10; i++) {
		const s = performance.now();
		await adminOverview(handle.db);
		overview.push(performance.now() - s);
	}
	overview.sort((a, b) => a - b);
	io.stdout(
		`  overview counts (state and outcome): median ${percentile(overview, 50).toFixed(1)} ms`
	);
	t = performance.now();
	const exported = itemsCsv(await exportItems(handle.db, parseItemQuery(new URLSearchParams())));
	io.stdout(
		`  items export, all ${N.toLocaleString('en')} as CSV: ${((performance.now() - t) / 1000).toFixed(2)} s (${(exported.length / 1e6).toFixed(1)} MB)`
	);
}

/** Import throughput and item-table query times at 50,000 items, on PGlite and PostgreSQL. */
export async function runImportBench(io: Io): Promise<void> {
	io.stdout(`Imports and the item table (${N.toLocaleString('en')} items)`);
	io.stdout(' PGlite (in memory):');
	const pglite = await openDatabase('pglite:memory');
	try {
		await migrateDatabase(pglite);
		await benchOn(pglite, io);
	} finally {
		await pglite.close();
	}
	const scratch = await benchDatabase(io, 'cliniq_bench');
	if (!scratch) return;
	io.stdout(' PostgreSQL:');
	const pg = await openDatabase(scratch.url);
	try {
		await migrateDatabase(pg);
		await benchOn(pg, io);
	} finally {
		await pg.close();
		await scratch.drop();
	}
}
