// Throwaway databases on a PostgreSQL server, for tests, end-to-end runs and benches: the one
// place that creates and drops them.
import { randomId } from '../ids';

export interface ScratchDatabase {
	/** Database name (lower-case letters, digits and underscores). */
	name: string;
	/** Connection URL of the new database (same server and credentials). */
	url: string;
	/** Drops the database, ending any connection still open to it. */
	drop(): Promise<void>;
}

/** The URL of database `name` on the server of `url` (same credentials and options). */
export function databaseUrl(url: string, name: string): string {
	const u = new URL(url);
	u.pathname = `/${name}`;
	return u.toString();
}

/** The maintenance database URL of the same server (to create and drop databases). */
export function adminUrl(url: string): string {
	return databaseUrl(url, 'postgres');
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Creates a database on the server of `serverUrl`: named `name`, or `<prefix>_<random>`; an
 * existing database of that exact name is dropped first. With `template`, it is a copy of that
 * database (CREATE DATABASE … TEMPLATE, much faster than migrating again).
 */
export async function createScratchDatabase(
	serverUrl: string,
	options: { prefix?: string; name?: string; template?: string } = {}
): Promise<ScratchDatabase> {
	const name = options.name ?? `${options.prefix ?? 'cliniq_scratch'}_${randomId(10)}`;
	for (const n of [name, options.template])
		if (n !== undefined && !NAME.test(n)) throw new Error(`Not a safe database name: ${n}`);
	const { default: postgres } = await import('postgres');
	const admin = postgres(adminUrl(serverUrl), { max: 1, onnotice: () => {}, connect_timeout: 5 });
	try {
		if (options.name) await admin.unsafe(`drop database if exists ${name} with (force)`);
		await admin.unsafe(
			`create database ${name}${options.template ? ` template ${options.template}` : ''}`
		);
	} finally {
		await admin.end();
	}
	return {
		name,
		url: databaseUrl(serverUrl, name),
		async drop() {
			const dropper = postgres(adminUrl(serverUrl), { max: 1, onnotice: () => {} });
			try {
				await dropper.unsafe(`drop database if exists ${name} with (force)`);
			} finally {
				await dropper.end();
			}
		}
	};
}
