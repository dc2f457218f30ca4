// Pure computations spread over worker threads, for the parts of a report that would hold one
// thread for seconds (a bootstrap's resamples). A kernel travels as source text — a function
// expression `(job, progress) => result` that uses only its arguments and JavaScript's built-ins —
// so it runs the same under every build of the portal (the server, the compiled CLI, the tests)
// without a worker file of its own to ship and find.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Threads a computation may spread over: the machine's cores, at most 8. */
export function threadCount(): number {
	return Math.max(1, Math.min(8, availableParallelism()));
}

/** How often a worker reports its progress (ms). */
const PROGRESS_MS = 50;

const workerScript = (kernel: string) => `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const kernel = ${kernel};
let last = 0;
const result = kernel(workerData, (done) => {
	const now = Date.now();
	if (now - last < ${PROGRESS_MS}) return;
	last = now;
	parentPort.postMessage({ done });
});
const moved = Object.values(result).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer);
parentPort.postMessage({ result }, moved);
`;

/**
 * Runs `kernel` (see above) on each job, each on a worker thread of its own, and returns their
 * results in the jobs' order; `progress(done)` with the sum of the progress the kernels reported
 * (each at most every PROGRESS_MS). Jobs are copied to their threads (typed arrays included);
 * typed arrays in a result are moved back, not copied. Rejects with the first failure (a kernel
 * that throws, a thread that cannot start), stopping the other threads.
 */
export function inThreads<J, R>(
	kernel: string,
	jobs: J[],
	progress?: (done: number) => void
): Promise<R[]> {
	const script = workerScript(kernel);
	const workers: Worker[] = [];
	const done = jobs.map(() => 0);
	const stopAll = () => {
		for (const w of workers) void w.terminate();
	};
	return Promise.all(
		jobs.map(
			(job, i) =>
				new Promise<R>((resolve, reject) => {
					const worker = new Worker(script, { eval: true, workerData: job });
					workers.push(worker);
					let result: { value: R } | null = null;
					worker.on('message', (message: { done?: number; result?: R }) => {
						if ('result' in message) {
							result = { value: message.result as R };
							resolve(result.value);
						} else if (message.done !== undefined && progress) {
							done[i] = message.done;
							progress(done.reduce((a, b) => a + b, 0));
						}
					});
					worker.on('error', reject);
					worker.on('exit', (code) => {
						if (!result)
							reject(new Error(`A worker thread stopped (exit code ${code}) before its result`));
					});
				})
		)
	).catch((error: unknown) => {
		stopAll();
		throw error;
	});
}
