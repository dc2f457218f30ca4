// Pure computations spread over worker threads, for the parts of a report that would hold one
// thread for seconds (a bootstrap's resamples). A kernel travels as source text — a function
// expression `(job, progress) => result` that uses only its arguments and JavaScript's built-ins —
// so it runs the same under every build of the portal (the server, the compiled CLI, the tests)
// without a worker file of its own to ship and find. The threads are a pool kept for the process:
// started when first needed (at most one per core), they wait unreferenced between jobs, so they
// neither keep the process alive nor start again for the next report, and a kernel they have run
// before is already compiled and optimised; one idle for a minute ends (its memory back).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Threads a computation may spread over: the machine's cores, at most 8. */
export function threadCount(): number {
	return Math.max(1, Math.min(8, availableParallelism()));
}

/**
 * 0…total−1 cut into at most `parts` consecutive ranges [from, to) as even as can be (none empty):
 * the shards of a job spread over threads.
 */
export function shares(total: number, parts: number): [number, number][] {
	const out: [number, number][] = [];
	for (let t = 0; t < parts; t++) {
		const from = Math.floor((t * total) / parts);
		const to = Math.floor(((t + 1) * total) / parts);
		if (to > from) out.push([from, to]);
	}
	return out;
}

/** How often a running job reports its progress (ms). */
const PROGRESS_MS = 50;

const WORKER = `'use strict';
// Not require(): the code may be run as a module (the process's --input-type applies to it too).
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const kernels = new Map();
parentPort.on('message', ({ task, kernel, job }) => {
	try {
		let run = kernels.get(kernel);
		if (!run) kernels.set(kernel, (run = (0, eval)(kernel)));
		let last = 0;
		const result = run(job, (done) => {
			const now = Date.now();
			if (now - last < ${PROGRESS_MS}) return;
			last = now;
			parentPort.postMessage({ task, done });
		});
		const moved = Object.values(result).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer);
		parentPort.postMessage({ task, result }, moved);
	} catch (error) {
		parentPort.postMessage({ task, error: { name: error && error.name, message: String(error && error.message || error) } });
	}
});
`;

interface Task {
	kernel: string;
	job: unknown;
	resolve: (result: unknown) => void;
	reject: (error: Error) => void;
	progress?: (done: number) => void;
}

interface PoolThread {
	worker: Worker;
	task: Task | null;
	/** Ends the thread once it has been idle for IDLE_MS. */
	idle?: ReturnType<typeof setTimeout>;
}

/** How long a thread of the pool waits for its next job before it ends (ms). */
const IDLE_MS = 60_000;

const pool: PoolThread[] = [];
const waiting: Task[] = [];
let taskIds = 0;
const running = new Map<number, { task: Task; thread: PoolThread }>();

/** A thread of the pool for `task`: an idle one, a new one while under threadCount(), or none. */
function threadFor(): PoolThread | null {
	const idle = pool.find((t) => t.task === null);
	if (idle) return idle;
	if (pool.length >= threadCount()) return null;
	const thread: PoolThread = { worker: new Worker(WORKER, { eval: true }), task: null };
	thread.worker.unref();
	thread.worker.on('message', (message: Reply) => settle(thread, message));
	const lost = (error: Error) => {
		const at = pool.indexOf(thread);
		if (at >= 0) pool.splice(at, 1);
		for (const [id, entry] of running)
			if (entry.thread === thread) {
				running.delete(id);
				entry.task.reject(error);
			}
		thread.task = null;
		dispatch();
	};
	thread.worker.on('error', lost);
	thread.worker.on('exit', (code) =>
		lost(new Error(`A worker thread stopped (exit code ${code})`))
	);
	pool.push(thread);
	return thread;
}

type Reply =
	| { task: number; done: number }
	| { task: number; result: unknown }
	| { task: number; error: { name?: string; message: string } };

function settle(thread: PoolThread, reply: Reply) {
	const entry = running.get(reply.task);
	if (!entry) return;
	if ('done' in reply) {
		entry.task.progress?.(reply.done);
		return;
	}
	running.delete(reply.task);
	thread.task = null;
	thread.worker.unref();
	thread.idle = setTimeout(() => retire(thread), IDLE_MS);
	thread.idle.unref();
	if ('result' in reply) entry.task.resolve(reply.result);
	else {
		const Type = ERRORS[reply.error.name ?? ''] ?? Error;
		entry.task.reject(new Type(reply.error.message));
	}
	dispatch();
}

const ERRORS: Record<string, ErrorConstructor> = {
	Error,
	SyntaxError,
	ReferenceError,
	TypeError,
	RangeError
};

/** Ends an idle thread (a new one starts when next needed). */
function retire(thread: PoolThread) {
	if (thread.task) return;
	const at = pool.indexOf(thread);
	if (at >= 0) pool.splice(at, 1);
	void thread.worker.terminate();
}

/** Gives waiting tasks to threads while there are both. */
function dispatch() {
	while (waiting.length) {
		const thread = threadFor();
		if (!thread) return;
		const task = waiting.shift()!;
		const id = ++taskIds;
		clearTimeout(thread.idle);
		thread.task = task;
		running.set(id, { task, thread });
		thread.worker.ref(); // a job under way keeps the process alive until it ends
		thread.worker.postMessage({ task: id, kernel: task.kernel, job: task.job });
	}
}

/**
 * Runs `kernel` (see above) on each job on the pool's threads and returns their results in the
 * jobs' order; `progress(done)` with the sum of the progress the jobs reported (each at most every
 * PROGRESS_MS). Jobs are copied to their threads (typed arrays included); typed arrays in a result
 * are moved back, not copied. Rejects with the first failure (a kernel that throws or does not
 * compile, a thread that stops); the call's other jobs still run to their end, their results
 * unused. Calls made together share the pool, their jobs served in turn.
 */
export function inThreads<J, R>(
	kernel: string,
	jobs: J[],
	progress?: (done: number) => void
): Promise<R[]> {
	const done = jobs.map(() => 0);
	const results = jobs.map(
		(job, i) =>
			new Promise<R>((resolve, reject) => {
				waiting.push({
					kernel,
					job,
					resolve: resolve as (result: unknown) => void,
					reject,
					progress: progress
						? (d) => {
								done[i] = d;
								progress(done.reduce((a, b) => a + b, 0));
							}
						: undefined
				});
			})
	);
	dispatch();
	return Promise.all(results);
}
