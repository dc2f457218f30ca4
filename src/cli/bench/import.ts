import { QA_TYPES } from '../../lib/constants';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
	migrateDatabase,
	pgliteExtensions,
	rowsOf,
	type DatabaseHandle,
	type Db
} from '$lib/server/db/client';
import * as schema from '$lib/server/db/schema';
import { sql } from 'drizzle-orm';
import { exportItems, itemsCsv, listItems, parseItemQuery } from '$lib/server/domain/items/items';
import { adminOverview } from '$lib/server/domain/items/overview';
import { seedUsers } from '$lib/server/fixtures/review';
import { importQaFiles, recordsOfFile } from '$lib/server/domain/imports/qa-import';
import { contentHash, itemKey, typedFields } from '$lib/server/domain/items';
import type { QaRecord } from '$lib/schemas/qa-record';
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

/** Runs statements through the bare driver (no ORM), in one transaction. */
type RawTransaction = (
	work: (run: (text: string, params: unknown[]) => Promise<unknown>) => Promise<void>
) => Promise<void>;

/** A database handle that counts the statements it sends. */
interface CountedHandle extends DatabaseHandle {
	statements: () => number;
	raw: RawTransaction;
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
			raw: (work) =>
				client.transaction(async (tx) => {
					await work(async (text, params) => {
						statements++;
						return tx.query(text, params);
					});
				}),
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
		raw: async (work) => {
			await client.begin(async (tx) => {
				await work((text, params) => tx.unsafe(text, params as never[]));
			});
		},
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

/** A job's time, statements, process and server CPU and peak RSS. */
async function measured<T>(handle: CountedHandle, job: () => Promise<T>) {
	const statements = handle.statements();
	const server = await handle.serverCpu();
	const cpu = process.cpuUsage();
	const rss = process.memoryUsage().rss;
	let peak = rss;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const t = performance.now();
	try {
		const result = await job();
		const ms = performance.now() - t;
		const used = process.cpuUsage(cpu);
		const serverAfter = await handle.serverCpu();
		return {
			result,
			ms,
			// The statements the bench's serverCpu probe sends are not the job's.
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

/** One import of the bench file, streamed from disk, with what it cost. */
function timedImport(handle: CountedHandle, path: string) {
	return measured(handle, () =>
		importQaFiles(handle.db, [{ fileName: 'bench.json', chunks: createReadStream(path) }], {
			actor: { userId: null, label: 'bench' }
		})
	);
}

type Measured = Awaited<ReturnType<typeof measured>>;

/** Records per statement of the floor (19 parameters a record, under PostgreSQL's 65,535). */
const FLOOR_RECORDS = 2000;
const FLOOR_PARAMS = 19;

/**
 * The floor's statement for `n` records: the items (45 % in the secondary sample), their first
 * versions and their primary review tasks, as one multi-row INSERT per table in one statement (the
 * items and versions point at each other, and a foreign key is checked at the statement's end).
 * Ids are drawn in the bench (a new database): the version's id is its item's.
 */
function floorStatement(n: number, datasetId: number, importId: number): string {
	const items: string[] = [];
	const versions: string[] = [];
	const tasks: string[] = [];
	for (let r = 0; r < n; r++) {
		const p = Array.from({ length: FLOOR_PARAMS }, (_, k) => `$${r * FLOOR_PARAMS + k + 1}`);
		const [id, key, type, paragraph, question, sampled, ...rest] = p;
		items.push(
			`(${id}, ${datasetId}, ${key}, ${type}, ${paragraph}, ${question}, ${id}, 1, ${importId}, ${importId}, ${sampled})`
		);
		versions.push(
			`(${id}, ${id}, 1, ${rest.slice(0, 2).join(', ')}, 'import', ${importId}, ${type}, ${question}, ${rest.slice(2).join(', ')}, ${paragraph})`
		);
		tasks.push(`(${id}, 'primary', ${id}, true)`);
	}
	return `with items as (
		insert into qa_item (id, dataset_id, item_key, type, paragraph_id, question,
			current_version_id, current_version, first_import_id, last_import_id, in_secondary_sample)
		overriding system value values ${items.join(', ')}
	), tasks as (
		insert into review_task (item_id, round, sort_key, awaits_passage) values ${tasks.join(', ')}
	)
	insert into qa_item_version (id, item_id, version, record, content_hash, origin, import_id, type,
		question, answer, answer_list, options, correct_answer, reasoning, false_answer,
		incorrect_explanation, incorrect_step, incorrect_step_explanation, source_isbn, source_page,
		paragraph_id)
	overriding system value values ${versions.join(', ')}`;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * The floor of the import: the same file read as a stream and parsed by the same reader, the same
 * rows (item keys, content hashes and typed columns computed as the import does) written through
 * the bare driver in one transaction, by multi-row INSERTs of 2,000 records, the next batch read
 * while one is written. No validation, no look-up of existing items, no sample draw, no ANALYZE.
 */
function floorImport(handle: CountedHandle, path: string) {
	return measured(handle, () =>
		handle.raw(async (run) => {
			const first = async (text: string) => rowsOf<{ id: number }>(await run(text, []))[0].id;
			const datasetId = await first(`insert into dataset (name) values ('floor') returning id`);
			const importId = await first(
				`insert into import (kind, dataset_id, file_name, actor)
				values ('qa', ${datasetId}, 'bench.json', 'floor') returning id`
			);
			let params: unknown[] = [];
			let id = 0;
			let inFlight: Promise<unknown> | null = null;
			const send = async () => {
				const n = params.length / FLOOR_PARAMS;
				const values = params;
				params = [];
				await inFlight;
				inFlight = run(floorStatement(n, datasetId, importId), values);
				inFlight.catch(() => {});
			};
			const file = { fileName: 'bench.json', chunks: createReadStream(path) };
			for await (const records of recordsOfFile(file)) {
				for (const { value, text } of records) {
					const record = value as QaRecord;
					const f = typedFields(record);
					id++;
					params.push(
						id,
						itemKey(record.type, record.source.paragraph_id, record.question),
						f.type,
						f.paragraphId,
						f.question,
						id % 20 < 9,
						text,
						contentHash(record),
						f.answer,
						json(f.answerList),
						json(f.options),
						f.correctAnswer,
						json(f.reasoning),
						f.falseAnswer,
						f.incorrectExplanation,
						f.incorrectStep,
						f.incorrectStepExplanation,
						f.sourceIsbn,
						f.sourcePage
					);
					if (params.length >= FLOOR_RECORDS * FLOOR_PARAMS) await send();
				}
			}
			if (params.length) await send();
			await inFlight;
		})
	);
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

function importLine(label: string, r: Measured) {
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
	const c = again.result;
	if (c.created || c.updated || c.unchanged !== N)
		throw new Error(`The re-import was not all unchanged: ${JSON.stringify(c)}`);
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
	return first;
}

/** The import's targets (issue "speed and scale, second pass"), in seconds. */
const TARGET_SECONDS = { postgres: 10, pglite: 15 };

/** The floor, measured on a new database of the same kind, and the import beside it. */
async function floorOn(handle: CountedHandle, io: Io, imported: Measured) {
	await migrateDatabase(handle);
	const floor = await floorImport(handle, await benchFile());
	const [written] = rowsOf<{ items: number; versions: number; tasks: number }>(
		await handle.db.execute(sql`
			select (select count(*) from qa_item)::int as items,
				(select count(*) from qa_item_version)::int as versions,
				(select count(*) from review_task)::int as tasks`)
	);
	if (written.items !== N || written.versions !== N || written.tasks !== N)
		throw new Error(`The floor wrote other rows than the import: ${JSON.stringify(written)}`);
	io.stdout(
		importLine(
			'floor: the same file parsed, its rows written by bare multi-row INSERTs (new database)',
			floor
		)
	);
	const target = TARGET_SECONDS[handle.kind];
	const s = imported.ms / 1000;
	// CPU (the process's and the server's) depends less than time on what else the machine runs.
	const cpu = (m: Measured) => m.nodeCpu + (m.serverCpu ?? 0);
	io.stdout(
		`  import ${N.toLocaleString('en')} QA items: ${s.toFixed(2)} s, floor ${(floor.ms / 1000).toFixed(2)} s, ratio ${(imported.ms / floor.ms).toFixed(2)} × (CPU ${(cpu(imported) / 1000).toFixed(2)} s, floor ${(cpu(floor) / 1000).toFixed(2)} s, ${(cpu(imported) / cpu(floor)).toFixed(2)} ×); target under ${target} s: ${s < target ? 'met' : 'MISSED'}`
	);
}

/** Import throughput and item-table query times at 50,000 items, on PostgreSQL and PGlite. */
export async function runImportBench(io: Io): Promise<void> {
	io.stdout(`Imports and the item table (${N.toLocaleString('en')} items)`);
	// PostgreSQL first, so its peak RSS is not that of the embedded database's heap.
	const scratch = await benchDatabase(io, 'cliniq_bench');
	if (scratch) {
		io.stdout(' PostgreSQL:');
		let imported: Measured | null = null;
		const pg = await openCounted(scratch.url);
		try {
			await migrateDatabase(pg);
			imported = await benchOn(pg, io);
		} finally {
			await pg.close();
			await scratch.drop();
		}
		const floorDb = await benchDatabase(io, 'cliniq_bench_floor');
		if (floorDb) {
			const floor = await openCounted(floorDb.url);
			try {
				await floorOn(floor, io, imported);
			} finally {
				await floor.close();
				await floorDb.drop();
			}
		}
	}
	io.stdout(' PGlite (in memory):');
	let imported: Measured;
	const pglite = await openCounted('pglite:memory');
	try {
		await migrateDatabase(pglite);
		imported = await benchOn(pglite, io);
	} finally {
		await pglite.close();
	}
	// A second instance, after the first is closed, so that the import's peak RSS is its own.
	const floor = await openCounted('pglite:memory');
	try {
		await floorOn(floor, io, imported);
	} finally {
		await floor.close();
	}
}
