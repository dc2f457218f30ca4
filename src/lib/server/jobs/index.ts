import type { JobQueue } from './queue';

// The job queue of this process, set once by the start-up module (startup.ts).
let queue: JobQueue | undefined;

/** Makes `boss` the app's job queue (start-up only). */
export function setJobQueue(boss: JobQueue): void {
	queue = boss;
}

/** The app's job queue; available once the server's init hook has run. */
export function getJobQueue(): JobQueue {
	if (!queue) throw new Error('The job queue is not started yet (startApp runs in the init hook).');
	return queue;
}
