// What the study benches (ranking, rubric, pairwise) share: a database of their own on PostgreSQL
// or PGlite with every statement counted, a raw driver for the baseline, and the measure itself:
// concurrent physicians through "submit + next" beside a raw-driver baseline of the same job,
// alternating in slices, each phase's rate, median, p95 and statements per action.
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import {
	migrateDatabase,
	migrationsFolder,
	pgliteExtensions,
	type DatabaseHandle,
	type DatabaseKind,
	type Db
} from '$lib/server/db/client';
import { functionsFolder } from '$lib/server/db/functions';
import { readTemplate } from '$lib/server/db/pglite-template';
import * as schema from '$lib/server/db/schema';
import type { Io } from '../io';
import { benchDatabase } from './database';
import { backendCpu, cpuBetween } from './server-cpu';

/** Length of each measured phase, in seconds (BENCH_SECONDS). */
export const benchSeconds = () => Number(process.env.BENCH_SECONDS) || 10;

/** Each phase runs in this many alternating slices. */
export const SLICES = 5;

/** A raw statement runner: text with $1… parameters, rows back (the same on both drivers). */
export type RawQuery = <T = Record<string, unknown>>(
	text: string,
	params?: unknown[]
) => Promise<T[]>;

/** The bare driver under the portal's drizzle handle, for a baseline written without the portal. */
export interface RawDriver {
	query: RawQuery;
	/** BEGIN, the work, COMMIT (ROLLBACK on an error), on one connection. */
	transaction<T>(work: (query: RawQuery) => Promise<T>): Promise<T>;
}

/** A bench's own migrated database, its statements counted client-side. */
export interface BenchDatabase {
	kind: DatabaseKind;
	db: Db;
	handle: DatabaseHandle;
	raw: RawDriver;
	/** PostgreSQL only: the postgres.js pool (the benches' baselines written as tagged templates). */
	sql?: postgres.Sql;
	/** Statements sent so far (BEGIN and COMMIT included). */
	statements(): number;
	/**
	 * PostgreSQL only: CPU of the database's backends so far, per backend (server-cpu.ts); null
	 * on PGlite (it runs inside this process) or a server on another machine.
	 */
	serverCpu(): Promise<Map<number, number> | null>;
	/** Closes the database and, on PostgreSQL, drops it. */
	close(): Promise<void>;
}

/**
 * A migrated database of the bench's own: on PostgreSQL (BENCH_DATABASE_URL; a database made for
 * it and dropped by `close`, or null with the reason printed when the server cannot make one) with
 * a pool of `pool` connections, whose `debug` hook sees every statement sent; or on PGlite in
 * memory (a copy of the migrated template when there is one), with its query, exec and
 * transaction calls counted.
 */
export async function openBenchDatabase(
	io: Io,
	kind: DatabaseKind,
	options: { prefix: string; pool: number }
): Promise<BenchDatabase | null> {
	let statements = 0;
	let bench: BenchDatabase;
	if (kind === 'postgres') {
		const scratch = await benchDatabase(io, options.prefix);
		if (!scratch) return null;
		const { default: postgresJs } = await import('postgres');
		const { drizzle } = await import('drizzle-orm/postgres-js');
		const sql = postgresJs(scratch.url, {
			max: options.pool,
			onnotice: () => {},
			debug: () => void statements++
		});
		const db = drizzle(sql, { schema, casing: 'snake_case' }) as unknown as Db;
		const handle: DatabaseHandle = {
			db,
			kind,
			location: scratch.name,
			close: () => sql.end({ timeout: 5 })
		};
		const runner =
			(s: postgres.Sql | postgres.TransactionSql): RawQuery =>
			async <T>(text: string, params: unknown[] = []) =>
				(await s.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
					prepare: true
				})) as unknown as T[];
		bench = {
			kind,
			db,
			handle,
			sql,
			raw: {
				query: runner(sql),
				transaction: async (work) => (await sql.begin((tx) => work(runner(tx)))) as never
			},
			statements: () => statements,
			serverCpu: backendCpu((text) => sql.unsafe(text) as unknown as Promise<[]>),
			close: async () => {
				await handle.close();
				await scratch.drop();
			}
		};
	} else {
		const { PGlite } = await import('@electric-sql/pglite');
		const { drizzle } = await import('drizzle-orm/pglite');
		const template = readTemplate(migrationsFolder(), functionsFolder());
		const client = new PGlite({
			extensions: await pgliteExtensions(),
			...(template ? { loadDataDir: new Blob([template]) } : {})
		});
		await client.waitReady;
		countStatements(client, () => statements++);
		const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
		const handle: DatabaseHandle = {
			db,
			kind,
			location: 'in memory',
			close: () => client.close()
		};
		const runner =
			(c: PGlite | Transaction): RawQuery =>
			async <T>(text: string, params: unknown[] = []) =>
				(await c.query<T>(text, params)).rows;
		bench = {
			kind,
			db,
			handle,
			raw: {
				query: runner(client),
				transaction: (work) => client.transaction((tx) => work(runner(tx)))
			},
			statements: () => statements,
			serverCpu: async () => null,
			close: () => handle.close()
		};
	}
	try {
		await migrateDatabase(bench.handle);
	} catch (e) {
		await bench.close();
		throw e;
	}
	return bench;
}

/**
 * Counts what PGlite is sent: each `query` and `exec`, and a transaction's BEGIN and COMMIT (or
 * ROLLBACK) with the statements run inside it, as postgres.js's `debug` counts them on a server.
 */
function countStatements(client: PGlite, count: () => void) {
	const query = client.query.bind(client);
	const exec = client.exec.bind(client);
	const transaction = client.transaction.bind(client);
	client.query = ((...args: Parameters<PGlite['query']>) => {
		count();
		return query(...args);
	}) as PGlite['query'];
	client.exec = ((...args: Parameters<PGlite['exec']>) => {
		count();
		return exec(...args);
	}) as PGlite['exec'];
	client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
		transaction(async (tx) => {
			count();
			const txQuery = tx.query.bind(tx);
			const txExec = tx.exec.bind(tx);
			tx.query = ((...args: Parameters<Transaction['query']>) => {
				count();
				return txQuery(...args);
			}) as Transaction['query'];
			tx.exec = ((...args: Parameters<Transaction['exec']>) => {
				count();
				return txExec(...args);
			}) as Transaction['exec'];
			try {
				return await work(tx);
			} finally {
				count();
			}
		})) as PGlite['transaction'];
}

/** One measured phase: its actions' times (ms), wall time, statements and database CPU. */
export interface Phase {
	actions: number;
	seconds: number;
	statements: number;
	times: number[];
	/** CPU (ms) of the database's backends during the phase, or null when it cannot be read. */
	dbCpuMs: number | null;
}

export const newPhase = (): Phase => ({
	actions: 0,
	seconds: 0,
	statements: 0,
	times: [],
	dbCpuMs: 0
});

/** The value at percentile `p` (0–100) of sorted values: the nearest rank below. */
export function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A phase's figures on one line: rate, count and time, median, p95, statements per action. */
export function describePhase(label: string, phase: Phase): string {
	const sorted = [...phase.times].sort((a, b) => a - b);
	const cpu =
		phase.dbCpuMs === null
			? ''
			: `, PostgreSQL CPU ${(phase.dbCpuMs / Math.max(1, phase.actions)).toFixed(2)} ms per action`;
	return `  ${label}: ${Math.round(phase.actions / phase.seconds)} actions/s (${phase.actions.toLocaleString('en')} in ${phase.seconds.toFixed(1)} s), median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, ${(phase.statements / Math.max(1, phase.actions)).toFixed(1)} statements per action${cpu}`;
}

/** The portal's rate as a share of the baseline's, in per cent. */
export function rateRatio(portal: Phase, baseline: Phase): number {
	return ((portal.actions / portal.seconds) * 100) / (baseline.actions / baseline.seconds);
}

/**
 * Runs `clients` concurrent portal clients and then as many baseline clients, alternating in
 * SLICES slices of `seconds` / SLICES each, so a change in the machine's load falls on both alike.
 * `portal(i)` does client i's next action while `ready(i)` says it has one; `baseline()` does one
 * action of the baseline. Times are per action, in ms.
 */
export async function measureAlternating(options: {
	clients: number;
	seconds: number;
	statements: () => number;
	portal: (client: number) => Promise<void>;
	baseline: () => Promise<void>;
	/** Client i has an action to do (default: always). */
	ready?: (client: number) => boolean;
	/** The database's backend CPU so far (BenchDatabase.serverCpu); none: not measured. */
	serverCpu?: () => Promise<Map<number, number> | null>;
}): Promise<{ portal: Phase; baseline: Phase }> {
	const portal = newPhase();
	const baseline = newPhase();
	const ready = options.ready ?? (() => true);
	const serverCpu = options.serverCpu ?? (async () => null);
	const clients = [...Array(options.clients).keys()];
	const measure = async (phase: Phase, run: (deadline: number) => Promise<unknown>) => {
		// The CPU reading's own statement falls outside the statement count.
		const cpu0 = await serverCpu();
		const before = options.statements();
		const start = performance.now();
		await run(start + (options.seconds * 1000) / SLICES);
		phase.seconds += (performance.now() - start) / 1000;
		phase.statements += options.statements() - before;
		phase.actions = phase.times.length;
		const cpu = cpuBetween(cpu0, await serverCpu());
		phase.dbCpuMs = cpu === null || phase.dbCpuMs === null ? null : phase.dbCpuMs + cpu;
	};
	for (let slice = 0; slice < SLICES; slice++) {
		await measure(portal, (deadline) =>
			Promise.all(
				clients.map(async (i) => {
					while (ready(i) && performance.now() < deadline) {
						const start = performance.now();
						await options.portal(i);
						portal.times.push(performance.now() - start);
					}
				})
			)
		);
		await measure(baseline, (deadline) =>
			Promise.all(
				clients.map(async () => {
					while (performance.now() < deadline) {
						const start = performance.now();
						await options.baseline();
						baseline.times.push(performance.now() - start);
					}
				})
			)
		);
	}
	return { portal, baseline };
}

/** Seconds since `start` (a performance.now() reading), to one decimal. */
export const since = (start: number) => ((performance.now() - start) / 1000).toFixed(1);
