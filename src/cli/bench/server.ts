// A production portal for HTTP benches: a scratch PostgreSQL database with 50,000 items and their
// review tasks, reviewer and organiser accounts with real password hashes, and `node build`
// running as a child process on it. The bench process drives the load; this file only sets up.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '$lib/server/auth/password';
import { migrateDatabase, openDatabase, type Db } from '$lib/server/db/client';
import { user } from '$lib/server/db/schema';
import type { ScratchDatabase } from '$lib/server/db/scratch';
import { setSecondaryShare } from '$lib/server/domain/verification/settings';
import { randomId } from '$lib/server/ids';
import type { Role } from '$lib/constants';
import type { Io } from '../io';
import { benchDatabase } from './database';
import { seedBenchItems } from './seed';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const BUILD_ENTRY = join(ROOT, 'build', 'handler.js');
/** What a production build is made from; a build older than any of these is stale. */
const BUILD_INPUTS = [
	'src',
	'static',
	'drizzle',
	'svelte.config.js',
	'vite.config.ts',
	'package.json'
];

/** An HTTP response as the bench reads it. */
export interface BenchResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** One signed-in browser: its session cookie and one keep-alive connection. */
export class BenchClient {
	readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
	cookie = '';

	constructor(readonly origin: string) {}

	/** Sends one request (the session cookie attached, `Set-Cookie: session=` taken up). */
	send(
		method: string,
		path: string,
		options: { headers?: Record<string, string>; body?: string } = {}
	): Promise<BenchResponse> {
		const url = new URL(path, this.origin);
		const headers: Record<string, string> = { ...options.headers };
		if (this.cookie) headers.cookie = this.cookie;
		if (options.body !== undefined)
			headers['content-length'] = String(Buffer.byteLength(options.body));
		return new Promise((done, fail) => {
			const req = request(url, { method, headers, agent: this.agent }, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('error', fail);
				res.on('end', () => {
					this.takeCookie(res.headers['set-cookie']);
					done({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8')
					});
				});
			});
			req.on('error', fail);
			req.end(options.body);
		});
	}

	/** Posts a form as a browser without JavaScript does (urlencoded, same-origin). */
	postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
		return this.send('POST', path, {
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				accept: 'text/html',
				origin: this.origin,
				...headers
			},
			body: new URLSearchParams(fields).toString()
		});
	}

	private takeCookie(setCookie: string[] | undefined) {
		for (const line of setCookie ?? []) {
			const [pair] = line.split(';');
			if (!pair.startsWith('session=')) continue;
			// An emptied or expired cookie signs the browser out.
			this.cookie = pair === 'session=' || /max-age=0/i.test(line) ? '' : pair;
		}
	}

	close() {
		this.agent.destroy();
	}
}

/** An account the bench signs in with. */
export interface BenchAccount {
	id: string;
	email: string;
	password: string;
}

export interface BenchServer {
	origin: string;
	/** The server's database (the floor of the same job runs on it beside the server). */
	databaseUrl: string;
	pid: number;
	reviewers: BenchAccount[];
	organiser: BenchAccount;
	/** CPU time (user + system) the server process has used so far, in milliseconds. */
	cpuMs(): number;
	/** A client signed in through the sign-in form. */
	signIn(account: BenchAccount): Promise<BenchClient>;
	/** Stops the server (letting it write its CPU profile) and drops the database. */
	stop(): Promise<void>;
}

function newestMtime(path: string): number {
	if (!existsSync(path)) return 0;
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) {
		const child = join(path, entry);
		// The CLI and tests are not part of the server build.
		if (child === join(ROOT, 'src', 'cli') || /\.test\.ts$/.test(entry)) continue;
		newest = Math.max(newest, newestMtime(child));
	}
	return newest;
}

/** Builds the portal (`vite build`) when build/ is missing or older than its sources. */
export function ensureBuild(io: Io): void {
	const built = existsSync(BUILD_ENTRY) ? statSync(BUILD_ENTRY).mtimeMs : 0;
	const sources = Math.max(...BUILD_INPUTS.map((p) => newestMtime(join(ROOT, p))));
	if (built >= sources) return;
	io.stdout(`  build/ is ${built ? 'older than the sources' : 'missing'}: running vite build …`);
	const t = performance.now();
	try {
		execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe']
		});
	} catch (e) {
		const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer };
		io.stderr(`${stdout ?? ''}${stderr ?? ''}`);
		throw new Error('vite build failed');
	}
	io.stdout(`  built in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.on('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => done(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
	} catch {
		return 100;
	}
})();

/** utime + stime of a process in milliseconds, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name (which may hold spaces) start at field 3, the state.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function createAccounts(db: Db, n: number, roles: Role[]): Promise<BenchAccount[]> {
	const accounts: BenchAccount[] = [];
	for (let i = 0; i < n; i++) {
		const password = `bench-${randomId(16)}`;
		const [row] = await db
			.insert(user)
			.values({
				id: randomId(),
				email: `${roles[0]}-${i}@bench.local`,
				displayName: `${roles[0]} ${i}`,
				pseudonym: `P-${randomId(8)}`,
				roles,
				passwordHash: await hashPassword(password)
			})
			.returning({ id: user.id, email: user.email });
		accounts.push({ ...row, password });
	}
	return accounts;
}

async function waitUntilUp(origin: string, child: ChildProcess, log: () => string) {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`the server exited:\n${log()}`);
		try {
			const res = await fetch(`${origin}/healthz`);
			if (res.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`the server did not answer /healthz within 60 s:\n${log()}`);
}

/**
 * Starts a production portal on a scratch database with `items` items (each with its primary
 * review task, 45 % sampled for a second review), `reviewers` reviewer accounts and one organiser.
 * `nodeArgs` go to the server's node (e.g. `--cpu-prof`); `appDir` runs another checkout's build
 * (this one's is rebuilt when stale). Null when PostgreSQL is unavailable.
 */
export async function startBenchServer(
	io: Io,
	options: { prefix: string; reviewers: number; nodeArgs?: string[]; appDir?: string }
): Promise<BenchServer | null> {
	const appDir = options.appDir ?? ROOT;
	if (appDir === ROOT) ensureBuild(io);
	else if (!existsSync(join(appDir, 'build', 'handler.js')))
		throw new Error(`${appDir} has no build (run vite build there)`);
	const scratch: ScratchDatabase | null = await benchDatabase(io, options.prefix);
	if (!scratch) return null;
	let child: ChildProcess | undefined;
	try {
		let t = performance.now();
		const handle = await openDatabase(scratch.url, { max: 4 });
		let reviewers: BenchAccount[];
		let organiser: BenchAccount;
		try {
			await migrateDatabase(handle);
			const datasetId = await seedBenchItems(handle.db);
			reviewers = await createAccounts(handle.db, options.reviewers, ['reviewer']);
			[organiser] = await createAccounts(handle.db, 1, ['organiser']);
			await setSecondaryShare(handle.db, organiser.id, { datasetId, share: 0.45, seed: 'bench' });
		} finally {
			await handle.close();
		}
		io.stdout(`  database seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

		const port = await freePort();
		const origin = `http://127.0.0.1:${port}`;
		t = performance.now();
		const server = spawn(process.execPath, [...(options.nodeArgs ?? []), 'build'], {
			cwd: appDir,
			env: {
				...process.env,
				DATABASE_URL: scratch.url,
				ORIGIN: origin,
				HOST: '127.0.0.1',
				PORT: String(port),
				SEED_DEMO: '0',
				NODE_ENV: 'production'
			},
			stdio: ['ignore', 'pipe', 'pipe']
		});
		child = server;
		let log = '';
		const keep = (chunk: Buffer) => {
			log = (log + chunk.toString()).slice(-4000);
		};
		server.stdout?.on('data', keep);
		server.stderr?.on('data', keep);
		await waitUntilUp(origin, server, () => log);
		io.stdout(
			`  server up in ${((performance.now() - t) / 1000).toFixed(1)} s (pid ${server.pid})`
		);
		const exited = new Promise<void>((r) => server.once('exit', () => r()));

		return {
			origin,
			databaseUrl: scratch.url,
			pid: server.pid!,
			reviewers,
			organiser: organiser!,
			cpuMs: () => processCpuMs(server.pid!),
			async signIn(account) {
				const client = new BenchClient(origin);
				const res = await client.postForm('/login', {
					email: account.email,
					password: account.password
				});
				if (res.status !== 303 || !client.cookie)
					throw new Error(
						`sign-in of ${account.email} failed (${res.status}): ${res.body.match(/<p[^>]*role="alert"[^>]*>([^<]*)/)?.[1] ?? res.body.slice(0, 300)}`
					);
				return client;
			},
			async stop() {
				if (server.exitCode === null) {
					server.kill('SIGTERM');
					await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
					if (server.exitCode === null) server.kill('SIGKILL');
				}
				if (server.exitCode && server.exitCode !== 0) io.stderr(log);
				await scratch.drop();
			}
		};
	} catch (e) {
		child?.kill('SIGKILL');
		await scratch.drop();
		throw e;
	}
}
