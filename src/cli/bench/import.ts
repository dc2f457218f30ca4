import { QA_TYPES } from '../../lib/constants';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
	migrateDatabase,
	pgliteExtensions,
	type DatabaseHandle,
	type Db
} from '$lib/server/db/client';
import * as schema from '$lib/server/db/schema';
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

/** The bench's QA file of N records (all seven types), written once to .bench/ and reused. */
async function benchFile(): Promise<string> {
	const dir = join(process.cwd(), '.bench');
	const path = join(dir, `qa-${N}.json`);
	try {
		if (statSync(path).size > 0) return path;
	} catch {
		// not written yet
	}
	mkdirSync(dir, { recursive: true });
	const out = createWriteStream(path);
	for (let i = 0; i < N; i++) {
		const record = JSON.stringify(validRecord(QA_TYPES[i % 7], i + 1));
		if (!out.write(`${i === 0 ? '[' : ','}${record}`)) await once(out, 'drain');
	}
	out.end(']');
	await once(out, 'finish');
	return path;
}

/** A database handle that counts the statements it sends. */
interface CountedHandle extends DatabaseHandle {
	statements: () => number;
	/** CPU time (ms) the server's processes for this database have used, when they are local. */
	serverCpu: () => Promise<number | null>;
}

async function openCounted(url: string): Promise<CountedHandle> {
	let statements = 0;
	if (url.startsWith('pglite:')) {
		const { PGlite } = await import('@electric-sql/pglite');
		const { drizzle } = await import('drizzle-orm/pglite');
		const client = new PGlite({ extensions: await pgliteExtensions() });
		await client.waitReady;
		return {
			// Statements through drizzle (BEGIN and COMMIT are not among them).
			db: drizzle(client, {
				schema,
				casing: 'snake_case',
				logger: { logQuery: () => void statements++ }
			}) as unknown as Db,
			kind: 'pglite',
			location: 'in memory',
			close: () => client.close(),
			statements: () => statements,
			serverCpu: async () => null
		};
	}
	const { default: postgres } = await import('postgres');
	const { drizzle } = await import('drizzle-orm/postgres-js');
	// Every statement on the wire, BEGIN and COMMIT included.
	const client = postgres(url, {
		max: 10,
		onnotice: () => {},
		debug: () => {
			statements++;
		}
	});
	const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
	return {
		db,
		kind: 'postgres',
		location: url,
		close: () => client.end({ timeout: 5 }),
		statements: () => statements,
		serverCpu: async () => {
			const pids = await client<{ pid: number }[]>`
				select pid from pg_stat_activity where datname = current_database()`;
			let ms = 0;
			for (const { pid } of pids) {
				try {
					// utime and stime, in clock ticks (100 per second on Linux).
					const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
					ms += (Number(fields[11]) + Number(fields[12])) * 10;
				} catch {
					return null;
				}
			}
			return ms;
		}
	};
}

/** One import of the bench file, streamed from disk, with what it cost. */
async function timedImport(handle: CountedHandle, path: string) {
	const statements = handle.statements();
	const server = await handle.serverCpu();
	const cpu = process.cpuUsage();
	const rss = process.memoryUsage().rss;
	let peak = rss;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const t = performance.now();
	try {
		const counts = await importQaFiles(
			handle.db,
			[{ fileName: 'bench.json', chunks: createReadStream(path) }],
			{ actor: { userId: null, label: 'bench' } }
		);
		const ms = performance.now() - t;
		const used = process.cpuUsage(cpu);
		const serverAfter = await handle.serverCpu();
		return {
			counts,
			ms,
			// The statements the bench's serverCpu probe sends are not the import's.
			statements: handle.statements() - statements - (handle.kind === 'postgres' ? 1 : 0),
			nodeCpu: (used.user + used.system) / 1000,
			serverCpu: server !== null && serverAfter !== null ? serverAfter - server : null,
			rss,
			peak: Math.max(peak, process.memoryUsage().rss)
		};
	} finally {
		clearInterval(sampler);
	}
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

function importLine(label: string, r: Awaited<ReturnType<typeof timedImport>>) {
	const s = r.ms / 1000;
	const server = r.serverCpu === null ? '' : `, server CPU ${(r.serverCpu / 1000).toFixed(2)} s`;
	return `  ${label}: ${s.toFixed(2)} s (${Math.round(N / s).toLocaleString('en')} records/s); ${r.statements} statements; process CPU ${(r.nodeCpu / 1000).toFixed(2)} s${server}; peak RSS ${mb(r.peak)} (${mb(r.rss)} before)`;
}

async function benchOn(handle: CountedHandle, io: Io) {
	const path = await benchFile();
	io.stdout(
		`  file: ${N.toLocaleString('en')} QA records of all seven types, ${mb(statSync(path).size)} of JSON, read as a stream`
	);
	const first = await timedImport(handle, path);
	io.stdout(importLine(`import ${N.toLocaleString('en')} QA items`, first));
	const again = await timedImport(handle, path);
	io.stdout(importLine('idempotent re-import (all unchanged)', again));
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
		'sort=question&dir=desc&page=last',
		'type=list&sort=updatedAt&dir=desc',
		'q=hypothyroidism&sort=question',
		'status=awaiting_primary&type=multi_hop&page=last',
		'held=yes',
		'outcome=verified&sort=finalRelevance&dir=desc&page=last',
		'passage=missing&page=last'
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
	const t = performance.now();
	const exported = itemsCsv(await exportItems(handle.db, parseItemQuery(new URLSearchParams())));
	io.stdout(
		`  items export, all ${N.toLocaleString('en')} as CSV: ${((performance.now() - t) / 1000).toFixed(2)} s (${(exported.length / 1e6).toFixed(1)} MB)`
	);
}

/** Import throughput and item-table query times at 50,000 items, on PostgreSQL and PGlite. */
export async function runImportBench(io: Io): Promise<void> {
	io.stdout(`Imports and the item table (${N.toLocaleString('en')} items)`);
	// PostgreSQL first, so its peak RSS is not that of the embedded database's heap.
	const scratch = await benchDatabase(io, 'cliniq_bench');
	if (scratch) {
		io.stdout(' PostgreSQL:');
		const pg = await openCounted(scratch.url);
		try {
			await migrateDatabase(pg);
			await benchOn(pg, io);
		} finally {
			await pg.close();
			await scratch.drop();
		}
	}
	io.stdout(' PGlite (in memory):');
	const pglite = await openCounted('pglite:memory');
	try {
		await migrateDatabase(pglite);
		await benchOn(pglite, io);
	} finally {
		await pglite.close();
	}
}
