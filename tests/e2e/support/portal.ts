// One portal per spec file: a copy of the e2e template database and the production build
// (`node build`) serving it on a free port. Specs never share state, whatever order they run in.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, type Db } from '../../../src/lib/server/db/client';
import { createScratchDatabase, type ScratchDatabase } from '../../../src/lib/server/db/scratch';
import type { E2eTemplate } from './template';

export interface Portal {
	/** Base URL of the running portal, e.g. `http://127.0.0.1:41234`. */
	url: string;
	/** What the database is ('postgres' or 'pglite'), as /healthz reports it. */
	kind: E2eTemplate['kind'];
	/** The server's process id (its memory can be read from /proc/<pid>/status). */
	pid: number;
	/** The database the server runs on (PGlite's folder cannot be opened while it runs). */
	databaseUrl: string;
	/** Stops only the server, leaving its database to be read; `stop` still cleans up. */
	stopServer(): Promise<void>;
	stop(): Promise<void>;
}

async function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => done(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null)
			throw new Error(`The portal exited with code ${child.exitCode}:\n${log()}`);
		try {
			if ((await fetch(`${url}/healthz`)).ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`The portal did not answer /healthz within 60 s:\n${log()}`);
}

/** Extra state a spec file needs, written into its copy of the template before the portal starts. */
export interface PrepareDatabase {
	prepare(db: Db): Promise<void>;
}

/**
 * Copies the template into a new database, prepares it, and starts the production server on it
 * (with `env` added to its environment).
 */
export async function startPortal(
	template: E2eTemplate,
	prepare: PrepareDatabase | null = null,
	env: Record<string, string> = {}
): Promise<Portal> {
	let databaseUrl: string;
	let scratch: ScratchDatabase | null = null;
	let folder: string | null = null;
	if (template.kind === 'postgres') {
		scratch = await createScratchDatabase(template.location, {
			prefix: 'cliniq_e2e',
			template: template.name
		});
		databaseUrl = scratch.url;
	} else {
		folder = mkdtempSync(join(tmpdir(), 'cliniq-e2e-'));
		cpSync(template.location, folder, { recursive: true });
		databaseUrl = `pglite:${folder}`;
	}
	if (prepare) {
		const handle = await openDatabase(databaseUrl, { max: 1 });
		try {
			await prepare.prepare(handle.db);
		} finally {
			await handle.close();
		}
	}
	const cleanUp = async () => {
		await scratch?.drop();
		if (folder) rmSync(folder, { recursive: true, force: true });
	};
	let server: PortalServer;
	try {
		server = await startServer(databaseUrl, env);
	} catch (e) {
		await cleanUp();
		throw e;
	}
	return {
		url: server.url,
		kind: template.kind,
		pid: server.pid,
		databaseUrl,
		stopServer: () => server.stop(),
		async stop() {
			await server.stop();
			await cleanUp();
		}
	};
}

/** One production server process (`node build`) on a database. */
export interface PortalServer {
	url: string;
	/** The server's process id (a test may kill it outright). */
	pid: number;
	/** What the server printed so far. */
	output(): string;
	/** Stops the server (SIGTERM, then SIGKILL after 5 s); a no-op once it has exited. */
	stop(): Promise<void>;
}

/**
 * Starts the production build on `databaseUrl` on a free port and waits until it answers
 * /healthz. Several servers may share one PostgreSQL database, as instances of a deployment do.
 */
export async function startServer(
	databaseUrl: string,
	env: Record<string, string> = {}
): Promise<PortalServer> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	let output = '';
	const child = spawn(process.execPath, [resolve('build')], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...process.env,
			DATABASE_URL: databaseUrl,
			PORT: String(port),
			HOST: '127.0.0.1',
			ORIGIN: url,
			SEED_DEMO: '0',
			// The test server runs over plain http.
			COOKIE_SECURE: '0',
			BODY_SIZE_LIMIT: '64M',
			...env
		}
	});
	// Keep the server's output for a failure report (and print its errors as they come).
	child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
	child.stderr!.on('data', (d: Buffer) => {
		output += d.toString();
		process.stderr.write(d);
	});
	try {
		await waitForHealth(url, child, () => output);
	} catch (e) {
		child.kill('SIGKILL');
		throw e;
	}
	return {
		url,
		pid: child.pid!,
		output: () => output,
		async stop() {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		}
	};
}
