// The review screen over HTTP against the production server (`node build`), as signed-in
// reviewers' browsers use it: an open loop at a fixed rate, a closed loop at saturation, and the
// organiser's pages. The server's CPU time per action is read from /proc around each phase.
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import * as devalue from 'devalue';
import type { Io } from '../io';
import postgres from 'postgres';
import { BenchClient, startBenchServer, type BenchServer } from './server';
import { reviewFloorAction } from './review';
import { backendCpu, cpuBetween, dbCpuLine } from './server-cpu';

const REVIEWERS = 50;

/** The organiser pages timed (label, URL); 50,000 items make 1,000 pages of 50. */
const ORGANISER_PAGES: [string, string][] = [
	['items, first page', '/admin/items'],
	['items, last page', '/admin/items?page=last'],
	['items, sorted by question', '/admin/items?sort=question'],
	['items, by question, last page', '/admin/items?sort=question&dir=desc&page=last'],
	['items, by relevance, descending', '/admin/items?sort=finalRelevance&dir=desc'],
	['items, text search', '/admin/items?q=question+12345'],
	['items, search, by question', '/admin/items?q=question+4242&sort=question'],
	['items, key prefix search', '/admin/items?q=bench-4242'],
	['overview', '/admin'],
	['verification progress', '/admin/verification']
];
const PAGE_WARMUP = 5;
const PAGE_SAMPLES = 40;

export interface HttpBenchOptions {
	/** Open-loop arrival rate, actions per second. */
	rate: number;
	/** Length of each timed phase, seconds. */
	seconds: number;
	/** Closed-loop clients (each a signed-in reviewer). */
	clients: number;
	/** Folder for the server's V8 CPU profile (`node --cpu-prof`), or none. */
	cpuProfileDir?: string;
	/** Another checkout with a build to compare with, phase by phase, at the same time. */
	compareDir?: string;
	/** The phases to run (all by default): a profile of one phase alone is easier to read. */
	phases: Phase[];
}

const PHASES = ['open', 'closed', 'data', 'pages'] as const;
type Phase = (typeof PHASES)[number];

/**
 * Reads `--rate`, `--seconds`, `--clients`, `--cpu-prof <dir>`, `--compare <checkout>` and
 * `--phases open,closed,data,pages` (or the BENCH_HTTP_* variables).
 */
export function parseHttpBenchOptions(args: string[]): HttpBenchOptions {
	const value = (flag: string, env: string) => {
		const i = args.indexOf(flag);
		return i >= 0 ? args[i + 1] : process.env[env];
	};
	const positive = (v: string | undefined, fallback: number) => {
		const n = Number(v);
		return v !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
	};
	const dir = value('--cpu-prof', 'BENCH_HTTP_CPU_PROF');
	const compare = value('--compare', 'BENCH_HTTP_COMPARE');
	const phases = (value('--phases', 'BENCH_HTTP_PHASES') ?? PHASES.join(','))
		.split(',')
		.filter((p): p is Phase => PHASES.includes(p as Phase));
	return {
		rate: positive(value('--rate', 'BENCH_HTTP_RATE'), 100),
		seconds: positive(value('--seconds', 'BENCH_HTTP_SECONDS'), 15),
		clients: Math.min(REVIEWERS, positive(value('--clients', 'BENCH_HTTP_CLIENTS'), REVIEWERS)),
		cpuProfileDir: dir ? resolve(dir) : undefined,
		compareDir: compare ? resolve(compare) : undefined,
		phases: phases.length ? phases : [...PHASES]
	};
}

function percentile(sorted: number[], p: number) {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '–');

/** The lease a page or action result hands the reviewer: the task, its form key, when shown. */
interface Lease {
	/** The public id of the work on screen. */
	publicId: string;
	key: string;
	startedAt: number;
}

/**
 * Finds the lease in a page's or action's data without depending on its exact shape: the first
 * object with a string `publicId` and a string `leaseToken` (or `key`), and the first numeric
 * `startedAt` (the time the item was shown).
 */
function findLease(data: unknown): Lease | null {
	let lease: Omit<Lease, 'startedAt'> | null = null;
	let startedAt: number | undefined;
	const seen = new Set<object>();
	const walk = (v: unknown) => {
		if (!v || typeof v !== 'object' || seen.has(v)) return;
		seen.add(v);
		const o = v as Record<string, unknown>;
		if (!Array.isArray(v)) {
			const key = typeof o.leaseToken === 'string' ? o.leaseToken : o.key;
			if (!lease && typeof o.publicId === 'string' && typeof key === 'string')
				lease = { publicId: o.publicId, key };
			if (startedAt === undefined && typeof o.startedAt === 'number') startedAt = o.startedAt;
		}
		for (const child of Object.values(o)) walk(child);
	};
	walk(data);
	const found = lease as Omit<Lease, 'startedAt'> | null;
	return found ? { ...found, startedAt: startedAt ?? Date.now() } : null;
}

type Outcome =
	| { kind: 'lease'; lease: Lease }
	| { kind: 'done' }
	| { kind: 'ok' }
	| { kind: 'error'; reason: string };

/** A `__data.json` response: its nodes' data decoded (devalue) as the client router does. */
function parseData(body: string) {
	const head = JSON.parse(body.split('\n')[0]) as {
		type: string;
		location?: string;
		nodes?: ({ type: string; data?: unknown[] } | null)[];
	};
	return {
		type: head.type,
		location: head.location,
		nodes: (head.nodes ?? []).map((n) =>
			n?.type === 'data' && n.data ? devalue.unflatten(n.data) : null
		)
	};
}

/**
 * The data of a page as the client router loads it after a redirect with `invalidateAll`
 * (`<path>/__data.json?x-sveltekit-invalidated=…`, every node asked for).
 */
async function loadPageData(client: BenchClient, location: string, hops = 0): Promise<Outcome> {
	const url = new URL(location, client.origin);
	url.pathname = `${url.pathname.replace(/\/$/, '')}/__data.json`;
	url.searchParams.set('x-sveltekit-invalidated', '11');
	const res = await client.send('GET', url.pathname + url.search);
	if (res.status !== 200) return { kind: 'error', reason: `GET ${res.status}` };
	const head = parseData(res.body);
	if (head.type === 'redirect' && head.location && hops < 3)
		return loadPageData(client, head.location, hops + 1);
	if (head.type !== 'data') return { kind: 'error', reason: `data ${head.type}` };
	const nodes = head.nodes;
	const lease = findLease(nodes);
	if (lease) return { kind: 'lease', lease };
	if (url.searchParams.get('done') === '1') return { kind: 'done' };
	return { kind: 'error', reason: 'no lease on the page' };
}

/**
 * Posts a form action as `use:enhance` does and reads its result; a redirect is followed as the
 * client router follows it (one more request, counted as part of the same action).
 */
async function enhancedAction(
	client: BenchClient,
	action: string,
	fields: Record<string, string>
): Promise<Outcome> {
	const res = await client.postForm(action, fields, {
		accept: 'application/json',
		'x-sveltekit-action': 'true'
	});
	if (res.status < 200 || res.status > 299) return { kind: 'error', reason: `POST ${res.status}` };
	const result = JSON.parse(res.body) as {
		type: 'success' | 'failure' | 'redirect' | 'error';
		status?: number;
		location?: string;
		data?: string;
	};
	if (result.type === 'redirect' && result.location) return loadPageData(client, result.location);
	if (result.type === 'success') {
		const data = result.data ? devalue.parse(result.data) : null;
		const lease = findLease(data);
		return lease ? { kind: 'lease', lease } : { kind: 'done' };
	}
	return { kind: 'error', reason: `action ${result.type} ${result.status ?? ''}`.trim() };
}

/** A signed-in reviewer working through the queue. */
class Reviewer {
	lease: Lease | null = null;
	finished = false;

	constructor(readonly client: BenchClient) {}

	/** "Review the next item" on the queue page. */
	async start(): Promise<Outcome> {
		const outcome = await enhancedAction(this.client, '/review?/start', {});
		this.take(outcome);
		return outcome;
	}

	/** One judgement: submit the review and arrive at the next item. */
	async act(): Promise<Outcome> {
		if (!this.lease) return this.start();
		const { publicId, key, startedAt } = this.lease;
		const outcome = await enhancedAction(this.client, `/review/task/${publicId}?/submit`, {
			taskId: publicId,
			key,
			startedAt: String(startedAt),
			verdict: 'correct',
			relevance: String(1 + (publicId.charCodeAt(0) % 5)),
			feedbackCategory: '',
			feedback: '',
			disputeCategory: '',
			disputeReason: ''
		});
		this.take(outcome);
		return outcome;
	}

	private take(outcome: Outcome) {
		if (outcome.kind === 'lease') this.lease = outcome.lease;
		else this.lease = null;
		if (outcome.kind === 'done') this.finished = true;
	}
}

interface PhaseResult {
	actions: number;
	emptied: number;
	errors: Map<string, number>;
	latencies: number[];
	elapsedS: number;
	serverCpuMs: number;
	clientCpuMs: number;
	backlogLeft?: number;
}

class Recorder {
	latencies: number[] = [];
	errors = new Map<string, number>();
	actions = 0;
	/** Actions after which the reviewer had nothing left to review. */
	emptied = 0;

	record(outcome: Outcome, latency: number) {
		this.actions++;
		this.latencies.push(latency);
		if (outcome.kind === 'error')
			this.errors.set(outcome.reason, (this.errors.get(outcome.reason) ?? 0) + 1);
		if (outcome.kind === 'done') this.emptied++;
	}
}

async function measure(
	server: BenchServer,
	run: (rec: Recorder) => Promise<number | void>
): Promise<PhaseResult> {
	const rec = new Recorder();
	const cpu0 = server.cpuMs();
	const client0 = process.cpuUsage();
	const t0 = performance.now();
	const backlogLeft = await run(rec);
	const elapsedS = (performance.now() - t0) / 1000;
	const client = process.cpuUsage(client0);
	return {
		actions: rec.actions,
		emptied: rec.emptied,
		errors: rec.errors,
		latencies: rec.latencies.sort((a, b) => a - b),
		elapsedS,
		serverCpuMs: server.cpuMs() - cpu0,
		clientCpuMs: (client.user + client.system) / 1000,
		backlogLeft: backlogLeft ?? undefined
	};
}

/** Every reviewer acts back to back until the time is up. */
function closedLoop(reviewers: Reviewer[], seconds: number) {
	return async (rec: Recorder) => {
		const deadline = performance.now() + seconds * 1000;
		await Promise.all(
			reviewers.map(async (r) => {
				while (!r.finished && performance.now() < deadline) {
					const t = performance.now();
					const outcome = await r
						.act()
						.catch((e: Error): Outcome => ({ kind: 'error', reason: e.message }));
					rec.record(outcome, performance.now() - t);
				}
			})
		);
	};
}

/**
 * Actions arrive at `rate` per second whatever the server's pace; an idle reviewer takes the
 * oldest waiting one. Latency runs from the arrival, so queueing counts (no coordinated
 * omission). Arrivals still waiting 10 s after the phase are abandoned and reported.
 */
function openLoop(reviewers: Reviewer[], rate: number, seconds: number) {
	return (rec: Recorder) =>
		new Promise<number>((done) => {
			const interval = 1000 / rate;
			const total = Math.round(rate * seconds);
			const t0 = performance.now();
			const idle = [...reviewers];
			const waiting: number[] = [];
			let arrived = 0;
			let running = 0;
			let abandon = false;
			const dispatch = () => {
				while (idle.length && waiting.length && !abandon) {
					const reviewer = idle.shift()!;
					const arrival = waiting.shift()!;
					running++;
					void reviewer.act().then(
						(outcome) => finish(reviewer, outcome, arrival),
						(e: Error) => finish(reviewer, { kind: 'error', reason: e.message }, arrival)
					);
				}
				if (arrived === total && running === 0 && (waiting.length === 0 || abandon))
					done(waiting.length);
			};
			const finish = (reviewer: Reviewer, outcome: Outcome, arrival: number) => {
				running--;
				rec.record(outcome, performance.now() - arrival);
				if (!reviewer.finished) idle.push(reviewer);
				dispatch();
			};
			const timer = setInterval(() => {
				const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
				while (arrived < due) waiting.push(t0 + arrived++ * interval);
				if (arrived === total) {
					clearInterval(timer);
					setTimeout(() => {
						abandon = true;
						dispatch();
					}, 10_000).unref();
				}
				dispatch();
			}, 2);
		});
}

/** Where a reviewer's page data lives: its item's page, or the home page (no item to load). */
type DataPage = 'item' | 'home';

/**
 * The request pipeline without the judgement: every reviewer reloads the data of the item it
 * holds (`__data.json`: hooks, session check, layout and page loads, serialisation), or of the
 * home page, whose loads read nothing but the session (the pipeline's fixed cost per request).
 */
function pageDataLoop(reviewers: Reviewer[], seconds: number, page: DataPage, bytes: number[]) {
	return async (rec: Recorder) => {
		const deadline = performance.now() + seconds * 1000;
		await Promise.all(
			reviewers.map(async (r) => {
				while (r.lease && performance.now() < deadline) {
					const t = performance.now();
					const path = page === 'item' ? `/review/task/${r.lease.publicId}` : '';
					const res = await r.client.send('GET', `${path}/__data.json?x-sveltekit-invalidated=11`);
					bytes.push(Buffer.byteLength(res.body));
					const data = res.status === 200 ? parseData(res.body) : null;
					const ok = data?.type === 'data' && (page === 'home' || findLease(data.nodes));
					rec.record(
						ok ? { kind: 'ok' } : { kind: 'error', reason: `GET ${res.status}` },
						performance.now() - t
					);
				}
			})
		);
	};
}

function report(io: Io, label: string, r: PhaseResult, unit = 'action') {
	const errors = [...r.errors].map(([k, n]) => `${n} × ${k}`).join(', ') || 'none';
	io.stdout(
		`  ${label}: ${r.actions.toLocaleString('en')} ${unit}s in ${r.elapsedS.toFixed(1)} s = ${(r.actions / r.elapsedS).toFixed(0)}/s; ` +
			`p50 ${ms(percentile(r.latencies, 50))}, p95 ${ms(percentile(r.latencies, 95))}, p99 ${ms(percentile(r.latencies, 99))}`
	);
	io.stdout(
		`    server CPU ${(r.serverCpuMs / Math.max(1, r.actions)).toFixed(2)} ms/${unit} ` +
			`(${((r.serverCpuMs / 1000 / r.elapsedS) * 100).toFixed(0)} % of a core); ` +
			`bench client CPU ${(r.clientCpuMs / Math.max(1, r.actions)).toFixed(2)} ms/${unit}; errors: ${errors}` +
			(r.backlogLeft ? `; ${r.backlogLeft} arrivals abandoned after a 10 s drain` : '') +
			(r.emptied ? `; ${r.emptied} reviewer(s) found no next item and stopped` : '')
	);
}

async function timePages(io: Io, client: BenchClient, server: BenchServer) {
	io.stdout(
		`  Organiser pages (full HTML, sequential, ${PAGE_SAMPLES} samples after ${PAGE_WARMUP} warm-up):`
	);
	for (const [label, path] of ORGANISER_PAGES) {
		const times: number[] = [];
		const statuses = new Set<number>();
		const cpu0 = server.cpuMs();
		for (let i = 0; i < PAGE_WARMUP + PAGE_SAMPLES; i++) {
			const t = performance.now();
			const res = await client.send('GET', path, { headers: { accept: 'text/html' } });
			if (i >= PAGE_WARMUP) times.push(performance.now() - t);
			statuses.add(res.status);
		}
		const cpu = (server.cpuMs() - cpu0) / (PAGE_WARMUP + PAGE_SAMPLES);
		times.sort((a, b) => a - b);
		const bad = [...statuses].filter((s) => s !== 200);
		io.stdout(
			`    ${label.padEnd(28)} ${path.padEnd(32)} p50 ${ms(percentile(times, 50)).padStart(9)}, p95 ${ms(percentile(times, 95)).padStart(9)}, server CPU ${cpu.toFixed(1)} ms` +
				(bad.length ? `  (HTTP ${bad.join(', ')}!)` : '')
		);
	}
}

async function signInAll(server: BenchServer, clients: BenchClient[]) {
	const reviewers: Reviewer[] = [];
	for (const account of server.reviewers) {
		const client = await server.signIn(account);
		clients.push(client);
		reviewers.push(new Reviewer(client));
	}
	return reviewers;
}

/**
 * This build against another (`--compare <checkout>`): both servers run side by side on
 * databases of their own, and the closed loop and the item data phase alternate between them in
 * short rounds, so the machine's load falls on both alike. Prints CPU per action and the ratio.
 */
async function runComparison(io: Io, options: HttpBenchOptions, other: string) {
	const clients: BenchClient[] = [];
	const servers: BenchServer[] = [];
	try {
		for (const appDir of [undefined, other]) {
			const server = await startBenchServer(io, {
				prefix: 'cliniq_bench_http',
				reviewers: REVIEWERS,
				appDir
			});
			if (!server) return;
			servers.push(server);
		}
		const reviewers = [];
		for (const server of servers) reviewers.push(await signInAll(server, clients));
		const rounds = 3;
		const seconds = Math.max(2, Math.round(options.seconds / rounds));
		const sums = servers.map(() => ({ actions: 0, cpu: 0, requests: 0, pageCpu: 0, time: 0 }));
		for (let i = 0; i < servers.length; i++) await measure(servers[i], closedLoop(reviewers[i], 2));
		for (let round = 0; round < rounds; round++) {
			for (let i = 0; i < servers.length; i++) {
				const closed = await measure(servers[i], closedLoop(reviewers[i], seconds));
				const pages = await measure(servers[i], pageDataLoop(reviewers[i], seconds, 'item', []));
				sums[i].actions += closed.actions;
				sums[i].time += closed.elapsedS;
				sums[i].cpu += closed.serverCpuMs;
				sums[i].requests += pages.actions;
				sums[i].pageCpu += pages.serverCpuMs;
			}
		}
		const label = ['this build', other];
		sums.forEach((s, i) =>
			io.stdout(
				`  ${label[i]}: ${(s.actions / s.time).toFixed(0)} actions/s, server CPU ${(s.cpu / s.actions).toFixed(2)} ms/action; item data ${(s.pageCpu / s.requests).toFixed(2)} ms/request`
			)
		);
		const [a, b] = sums;
		io.stdout(
			`  ratio this/other: CPU per action ${(a.cpu / a.actions / (b.cpu / b.actions)).toFixed(2)}, per item data request ${(a.pageCpu / a.requests / (b.pageCpu / b.requests)).toFixed(2)}`
		);
	} finally {
		for (const c of clients) c.close();
		for (const s of servers) await s.stop();
	}
}

/** The share of the floor's rate HTTP with JavaScript should reach, in per cent. */
const HTTP_FLOOR_TARGET = 30;

/** The floor of the review action on the server's database, run by `reviewers` clients. */
async function floorPhase(
	raw: postgres.Sql,
	reviewerIds: string[],
	seconds: number,
	dbCpu: () => Promise<Map<number, number> | null>
) {
	const cpu0 = await dbCpu();
	const t0 = performance.now();
	const deadline = t0 + seconds * 1000;
	let actions = 0;
	await Promise.all(
		reviewerIds.map(async (id) => {
			while (performance.now() < deadline && (await reviewFloorAction(raw, id))) actions++;
		})
	);
	const elapsed = (performance.now() - t0) / 1000;
	return { actions, seconds: elapsed, dbCpuMs: cpuBetween(cpu0, await dbCpu()) };
}

/**
 * `cliniq bench http`: the production server on 50,000 items with 50 signed-in reviewers. One
 * action is "submit a review and arrive at the next item", however many requests the client
 * needs for it (today a POST answered by a redirect, then the next item's data).
 */
export async function runHttpBench(io: Io, options: HttpBenchOptions): Promise<void> {
	io.stdout(
		`HTTP: review actions against node build (50,000 items, ${REVIEWERS} reviewers signed in, PostgreSQL)`
	);
	if (options.compareDir) return runComparison(io, options, options.compareDir);
	const server = await startBenchServer(io, {
		prefix: 'cliniq_bench_http',
		reviewers: REVIEWERS,
		nodeArgs: options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : []
	});
	if (!server) return;
	const clients: BenchClient[] = [];
	try {
		const reviewers = await signInAll(server, clients);
		const organiser = await server.signIn(server.organiser);
		clients.push(organiser);
		io.stdout(`  ${reviewers.length} reviewers and 1 organiser signed in through /login`);

		const run = (phase: Phase) => options.phases.includes(phase);
		await measure(server, closedLoop(reviewers, Math.min(3, options.seconds)));
		if (run('open')) {
			const open = await measure(server, openLoop(reviewers, options.rate, options.seconds));
			report(io, `open loop ${options.rate}/s`, open);
		}
		const active = reviewers.slice(0, options.clients);
		if (run('closed')) {
			const floorDb = postgres(server.databaseUrl, { max: active.length + 1, onnotice: () => {} });
			try {
				const dbCpu = backendCpu((text) => floorDb.unsafe(text) as unknown as Promise<[]>);
				const cpu0 = await dbCpu();
				const closed = await measure(server, closedLoop(active, options.seconds));
				const closedDbCpu = cpuBetween(cpu0, await dbCpu());
				report(io, `closed loop, ${options.clients} clients`, closed);
				const ids = server.reviewers.slice(0, active.length).map((a) => a.id);
				const floor = await floorPhase(floorDb, ids, options.seconds, dbCpu);
				io.stdout(
					`  floor (the same job through the bare driver, ${active.length} clients, BEGIN; claim with SKIP LOCKED; insert the review; mark done; COMMIT): ${floor.actions.toLocaleString('en')} in ${floor.seconds.toFixed(1)} s = ${(floor.actions / floor.seconds).toFixed(0)}/s`
				);
				const share = (closed.actions / closed.elapsedS / (floor.actions / floor.seconds)) * 100;
				io.stdout(
					`  HTTP with JavaScript at ${share.toFixed(0)} % of the floor's rate (target ≥ ${HTTP_FLOOR_TARGET} %: ${share >= HTTP_FLOOR_TARGET ? 'met' : 'MISSED'})`
				);
				io.stdout(
					dbCpuLine(
						'HTTP submit + next',
						{ actions: closed.actions, dbCpuMs: closedDbCpu },
						{ actions: floor.actions, dbCpuMs: floor.dbCpuMs }
					)
				);
			} finally {
				await floorDb.end({ timeout: 5 });
			}
		}
		if (run('data')) {
			const seconds = Math.min(5, options.seconds);
			for (const [page, label] of [
				['home', 'home page data (GET /__data.json: session check and layout only)'],
				['item', 'item page data (GET /review/task/<id>/__data.json)']
			] as const) {
				const bytes: number[] = [];
				const result = await measure(server, pageDataLoop(active, seconds, page, bytes));
				report(io, `${label}, ${options.clients} clients`, result, 'request');
				io.stdout(
					`    ${Math.round(bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length))} bytes per response`
				);
			}
		}
		if (run('pages')) await timePages(io, organiser, server);
		io.stdout(
			'  Targets: ≤ 3 ms server CPU per action; p95 < 25 ms at 100/s open loop; ≥ 300 actions/s closed loop. ' +
				'Client and server share this machine’s cores.'
		);
	} finally {
		for (const c of clients) c.close();
		await server.stop();
		if (options.cpuProfileDir)
			io.stdout(`  server CPU profile written to ${options.cpuProfileDir}`);
	}
}
