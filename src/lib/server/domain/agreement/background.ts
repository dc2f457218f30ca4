// A report that takes longer than a page may wait is computed beside the request that asked for it:
// the page shows how far it has got and asks again, instead of holding the request (and the
// organiser) until the last resample. One computation per report and options in this process,
// whoever asks; its result lands in the stats cache, where the next request finds it.
import { z } from 'zod';
import { isPending, type Pending } from '../../../pending';
import { runReporting, type ReportProgress } from '../../progress';

export type { ReportProgress };

export { isPending, type Pending };

interface Job {
	promise: Promise<unknown>;
	progress: ReportProgress;
	/** Set when the computation failed and no request has been told yet. */
	failure?: { error: unknown };
}

const jobs = new Map<string, Job>();
/** The end of the last computation started: the next one starts after it. */
let queue: Promise<void> = Promise.resolve();
/** How long a failure waits for the next request to report it (then the next one tries again). */
const FAILURE_KEPT_MS = 5 * 60_000;

/**
 * `compute()` for the report under `key`, joined when this process already computes it: its value
 * when it ends within `waitMs`, else where it has got (it goes on, and a later call with the same
 * key gets its value, or its failure once). `report` names it for the page.
 */
export async function inBackground<T>(
	key: string,
	report: string,
	compute: () => Promise<T>,
	waitMs: number
): Promise<T | Pending> {
	let job = jobs.get(key);
	if (job?.failure) {
		jobs.delete(key);
		throw job.failure.error;
	}
	if (!job) {
		const progress: ReportProgress = {
			report,
			part: [...jobs.values()].some((j) => !j.failure)
				? 'waiting for the reports asked for before it'
				: 'starting',
			step: 0,
			steps: 1,
			startedAt: new Date().toISOString(),
			within: null
		};
		// One computation at a time: side by side on one thread they only slow each other down.
		const started: Job = {
			progress,
			promise: queue.then(() => runReporting(progress, compute))
		};
		queue = started.promise.then(
			() => undefined,
			() => undefined
		);
		started.promise.then(
			() => {
				if (jobs.get(key) === started) jobs.delete(key);
			},
			(error: unknown) => {
				if (jobs.get(key) !== started) return;
				started.failure = { error };
				setTimeout(() => {
					if (jobs.get(key) === started) jobs.delete(key);
				}, FAILURE_KEPT_MS).unref();
			}
		);
		jobs.set(key, (job = started));
	}
	const running = job;
	let timer: NodeJS.Timeout | undefined;
	const waited = new Promise<'waited'>((resolve) => {
		timer = setTimeout(() => resolve('waited'), Math.max(0, waitMs));
	});
	const outcome = running.promise.then(
		(value) => ({ value: value as T }),
		(error: unknown) => ({ error })
	);
	const first = await Promise.race([outcome, waited]);
	clearTimeout(timer);
	if (first === 'waited') return { pending: { ...running.progress } };
	if ('error' in first) {
		// This request reports the failure: the next one starts afresh.
		if (jobs.get(key) === running) jobs.delete(key);
		throw first.error;
	}
	return first.value;
}

const handles = new WeakMap<object, number>();
let handleCount = 0;
/** A token for a database handle: keys of different databases in one process never meet. */
export function databaseToken(db: object): number {
	let token = handles.get(db);
	if (token === undefined) handles.set(db, (token = ++handleCount));
	return token;
}

/** Reports computing now in this process (for tests and diagnostics). */
export function reportsInBackground(): number {
	return jobs.size;
}

/** How long the agreement page waits for a report before showing its progress: REPORT_WAIT_MS. */
export const DEFAULT_REPORT_WAIT_MS = 1500;

/** REPORT_WAIT_MS (default 1,500 ms; 0 shows the progress of any report not in the cache). */
export function reportWaitFromEnv(env: Record<string, string | undefined> = process.env): number {
	const parsed = z.coerce
		.number()
		.int()
		.min(0)
		.max(600_000)
		.safeParse(env.REPORT_WAIT_MS ?? DEFAULT_REPORT_WAIT_MS);
	if (!parsed.success)
		throw new Error('REPORT_WAIT_MS must be a whole number of milliseconds from 0 to 600000.');
	return parsed.data;
}

/** A part's name with its bootstrap: "agreement between reviewers, 1,000 resamples". */
export function resamplesPart(part: string, resamples: number): string {
	return resamples > 0 ? `${part}, ${resamples.toLocaleString('en')} resamples` : part;
}
