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
	/** What runningReport finds it by, if given. */
	identity?: string;
}

const jobs = new Map<string, Job>();
/** The end of the last computation started: the next one starts after it. */
let queue: Promise<void> = Promise.resolve();
/** How long a failure waits for the next request to report it (then the next one tries again). */
const FAILURE_KEPT_MS = 5 * 60_000;

/**
 * `compute()` for the report under `key`, joined when this process already computes it: its value
 * when it ends within `waitMs`, else where it has got (it goes on, and a later call with the same
 * key gets its value, or its failure once). `report` names it for the page; `identity` (the report
 * and its options, without the state of its data) lets `runningReport` find it while it runs.
 */
export async function inBackground<T>(
	key: string,
	report: string,
	compute: () => Promise<T>,
	waitMs: number,
	identity?: string
): Promise<T | Pending> {
	let job = jobs.get(key);
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
			promise: queue.then(() => runReporting(progress, compute)),
			identity
		};
		queue = started.promise.then(
			() => undefined,
			() => undefined
		);
		started.promise.then(
			() => forget(key, started),
			(error: unknown) => {
				if (jobs.get(key) !== started) return;
				started.failure = { error };
				setTimeout(() => forget(key, started), FAILURE_KEPT_MS).unref();
			}
		);
		jobs.set(key, (job = started));
		if (identity !== undefined) identities.set(identity, key);
	}
	return settle<T>(key, job, waitMs);
}

/** The key of the computation started last under each identity (see runningReport). */
const identities = new Map<string, string>();

function forget(key: string, job: Job) {
	if (jobs.get(key) !== job) return;
	jobs.delete(key);
	// Unless a computation started since under the same identity holds it now.
	if (job.identity !== undefined && identities.get(job.identity) === key)
		identities.delete(job.identity);
}

/**
 * The computation this process runs (or queues) under `identity`, if any, as `inBackground`
 * would answer for it when joined: without knowing the state of its data. `wait(waitMs)` gives its
 * value, its progress or its failure, even if it ends between this call and that one.
 */
export function runningReport(
	identity: string
): { wait: <T>(waitMs: number) => Promise<T | Pending> } | undefined {
	const key = identities.get(identity);
	const job = key === undefined ? undefined : jobs.get(key);
	if (key === undefined || !job) return undefined;
	return { wait: <T>(waitMs: number) => settle<T>(key, job, waitMs) };
}

// The value of a job within `waitMs`, else its progress; its failure reported once.
async function settle<T>(key: string, running: Job, waitMs: number): Promise<T | Pending> {
	if (running.failure) {
		// This request reports the failure: the next one starts afresh.
		forget(key, running);
		throw running.failure.error;
	}
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
		forget(key, running);
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
