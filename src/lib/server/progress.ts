// Where a long computation has got, for whoever waits for it: a computation run with
// `runReporting` records its parts (`reportPart`) and the steps of a part that counts them
// (`inSlices`), pausing between them so the server answers other requests meanwhile. Outside such
// a run both do nothing and run straight through (the CLI, the downloads, the tests).
import { AsyncLocalStorage } from 'node:async_hooks';
import { drain } from '../stats/bootstrap';

/** How far a report's computation has got: the part it is in, of how many, since when. */
export interface ReportProgress {
	/** What is computed, e.g. "the study's agreement report". */
	report: string;
	/** The part computed now (e.g. "the experts' leaderboard, 1,000 resamples"). */
	part: string;
	/** The part's place (1-based) among the report's `steps` parts; 0 before the first. */
	step: number;
	steps: number;
	/** When the computation started (ISO 8601). */
	startedAt: string;
	/** Within a part that counts its steps (e.g. resamples): how many are done, of how many. */
	within: { done: number; total: number; unit: string } | null;
}

const current = new AsyncLocalStorage<ReportProgress>();

/** Runs `compute` recording its progress into `progress` (see reportPart and inSlices). */
export function runReporting<T>(progress: ReportProgress, compute: () => Promise<T>): Promise<T> {
	return current.run(progress, compute);
}

/**
 * Inside a report's computation: it starts part `step` of `steps`, named `part`. In a background
 * computation this records it and lets the server answer other requests (the page's own polls
 * included) before the part runs; anywhere else it does nothing.
 */
export async function reportPart(step: number, steps: number, part: string): Promise<void> {
	const progress = current.getStore();
	if (!progress) return;
	Object.assign(progress, { step, steps, part, within: null });
	await new Promise((resolve) => setImmediate(resolve));
}

/** How long a part counting its steps runs before it lets the server answer others (ms). */
const SLICE_MS = 25;

/**
 * Runs a part that yields after each of its `total` steps (counted in `unit`) to its end, and
 * returns its value. In a background computation it pauses every SLICE_MS to let the server answer
 * other requests and records how many steps are done; anywhere else it runs straight through.
 */
export async function inSlices<R>(
	steps: Generator<number, R, void>,
	total: number,
	unit: string
): Promise<R> {
	const progress = current.getStore();
	if (!progress) return drain(steps);
	let step = steps.next();
	let sliceEnd = performance.now() + SLICE_MS;
	while (!step.done) {
		if (performance.now() >= sliceEnd) {
			progress.within = { done: step.value, total, unit };
			await new Promise((resolve) => setImmediate(resolve));
			sliceEnd = performance.now() + SLICE_MS;
		}
		step = steps.next();
	}
	progress.within = null;
	return step.value;
}

/**
 * Inside a report's computation: a function recording that `done` of the current part's `total`
 * steps (counted in `unit`) are done, for a part whose steps run elsewhere (on other threads);
 * anywhere else one that does nothing.
 */
export function stepsReporter(total: number, unit: string): (done: number) => void {
	const progress = current.getStore();
	if (!progress) return () => {};
	return (done) => {
		progress.within = { done, total, unit };
	};
}
