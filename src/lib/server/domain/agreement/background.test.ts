import { describe, expect, it } from 'vitest';
import {
	DEFAULT_REPORT_WAIT_MS,
	inBackground,
	isPending,
	reportsInBackground,
	reportWaitFromEnv,
	resamplesPart,
	runningReport,
	type ReportProgress
} from './background';
import { inSlices, reportPart } from '../../progress';

/** A computation the test ends by hand, reporting its parts as a report does. */
function controlled<T>(value: T) {
	let finish!: () => void;
	let fail!: (error: Error) => void;
	const gate = new Promise<void>((resolve, reject) => {
		finish = resolve;
		fail = reject;
	});
	// Failed before the computation reaches it, the gate is not an unhandled rejection.
	gate.catch(() => {});
	let calls = 0;
	const compute = async () => {
		calls++;
		await reportPart(1, 2, 'reading');
		await reportPart(2, 2, resamplesPart('the bootstrap', 1000));
		await gate;
		return value;
	};
	return { compute, finish: () => finish(), fail: (e: Error) => fail(e), calls: () => calls };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('reports computed in the background', () => {
	it('gives the value of a computation that ends within the wait, and keeps nothing', async () => {
		const value = await inBackground('quick', 'a quick report', async () => 42, 1000);
		expect(value).toBe(42);
		expect(reportsInBackground()).toBe(0);
	});

	it('shows where a longer one has got, computes it once for every caller, then gives its value', async () => {
		const job = controlled({ figure: 0.5 });
		const first = await inBackground('slow', "the study's agreement report", job.compute, 20);
		expect(isPending(first)).toBe(true);
		if (!isPending(first)) return;
		expect(first.pending).toMatchObject({
			report: "the study's agreement report",
			part: 'the bootstrap, 1,000 resamples',
			step: 2,
			steps: 2
		});
		expect(Date.parse(first.pending.startedAt)).toBeLessThanOrEqual(Date.now());
		// Asked again while it runs: the same computation, still going.
		const again = await inBackground('slow', "the study's agreement report", job.compute, 0);
		expect(isPending(again)).toBe(true);
		expect(job.calls()).toBe(1);
		// A caller that waits long enough gets the value when it ends.
		const waiting = inBackground('slow', "the study's agreement report", job.compute, 60_000);
		job.finish();
		expect(await waiting).toEqual({ figure: 0.5 });
		expect(job.calls()).toBe(1);
		await tick();
		expect(reportsInBackground()).toBe(0);
	});

	it("finds a report computed under its identity, without its data's state, until it ends", async () => {
		const job = controlled({ figure: 1 });
		expect(runningReport('study 7, 1,000 resamples')).toBeUndefined();
		const key = 'study 7, 1,000 resamples, data as of one moment';
		await inBackground(key, 'a report', job.compute, 0, 'study 7, 1,000 resamples');
		const found = runningReport('study 7, 1,000 resamples');
		expect(found).toBeDefined();
		expect(runningReport('study 7, 10 resamples')).toBeUndefined();
		const shown = await found!.wait(0);
		expect(isPending(shown) && shown.pending.part).toBe('the bootstrap, 1,000 resamples');
		// Found before it ends and asked after: its value, not a new computation.
		job.finish();
		await tick();
		expect(runningReport('study 7, 1,000 resamples')).toBeUndefined();
		expect(await found!.wait(0)).toEqual({ figure: 1 });
		expect(job.calls()).toBe(1);
		expect(reportsInBackground()).toBe(0);
	});

	it('reports a failure found under its identity once, as when joined by key', async () => {
		const job = controlled('never');
		await inBackground('failing by identity', 'a report', job.compute, 0, 'failing report');
		job.fail(new Error('out of memory'));
		await tick();
		await tick();
		const found = runningReport('failing report');
		await expect(found!.wait(0)).rejects.toThrow('out of memory');
		expect(runningReport('failing report')).toBeUndefined();
		expect(reportsInBackground()).toBe(0);
	});

	it('reports a failure to the next caller once; the caller after starts afresh', async () => {
		const job = controlled('never');
		expect(isPending(await inBackground('failing', 'a report', job.compute, 0))).toBe(true);
		job.fail(new Error('the database went away'));
		await tick();
		await expect(inBackground('failing', 'a report', job.compute, 0)).rejects.toThrow(
			'the database went away'
		);
		const retry = await inBackground('failing', 'a report', async () => 'recomputed', 1000);
		expect(retry).toBe('recomputed');
	});

	it('reports a failure within the wait to the caller that waited', async () => {
		await expect(
			inBackground(
				'failing-fast',
				'a report',
				async () => {
					throw new Error('bad options');
				},
				1000
			)
		).rejects.toThrow('bad options');
		expect(reportsInBackground()).toBe(0);
	});

	it('keeps the computations of different keys apart, and runs them one after another', async () => {
		const a = controlled('a');
		const b = controlled('b');
		expect(isPending(await inBackground('key-a', 'report a', a.compute, 0))).toBe(true);
		expect(isPending(await inBackground('key-b', 'report b', b.compute, 0))).toBe(true);
		// One at a time: b waits for a, and says so.
		const waiting = await inBackground('key-b', 'report b', b.compute, 0);
		expect(isPending(waiting) && waiting.pending.part).toBe(
			'waiting for the reports asked for before it'
		);
		expect(b.calls()).toBe(0);
		a.finish();
		expect(await inBackground('key-a', 'report a', a.compute, 60_000)).toBe('a');
		b.finish();
		expect(await inBackground('key-b', 'report b', b.compute, 60_000)).toBe('b');
		expect([a.calls(), b.calls()]).toEqual([1, 1]);
	});

	it('pauses a part counting its steps, saying how many are done, for the same value', async () => {
		function* counting(total: number): Generator<number, number, void> {
			for (let i = 0; i < total; i++) {
				// About a millisecond of work per step.
				const until = performance.now() + 1;
				while (performance.now() < until);
				yield i + 1;
			}
			return total;
		}
		// Outside a background computation: straight through.
		expect(await inSlices(counting(5), 5, 'steps')).toBe(5);
		const seen: (ReportProgress['within'] | undefined)[] = [];
		const report = inBackground(
			'slices',
			'a report in slices',
			async () => {
				await reportPart(1, 1, 'counting');
				return inSlices(counting(200), 200, 'resamples');
			},
			60_000
		);
		// The server answers between slices: here, a caller asking where it has got.
		for (let i = 0; i < 100 && seen.length < 3; i++) {
			await new Promise((resolve) => setTimeout(resolve, 20));
			const asked = await inBackground('slices', 'a report in slices', async () => -1, 0);
			if (isPending(asked)) seen.push(asked.pending.within);
		}
		expect(await report).toBe(200);
		expect(seen.length).toBeGreaterThanOrEqual(2);
		for (const within of seen) {
			expect(within).toMatchObject({ total: 200, unit: 'resamples' });
			expect(within!.done).toBeGreaterThan(0);
			expect(within!.done).toBeLessThan(200);
		}
		const done = seen.map((w) => w!.done);
		expect(done).toEqual([...done].sort((a, b) => a - b));
	});

	it('names parts with their resamples, and none without a bootstrap', () => {
		expect(resamplesPart('the rubric report', 10_000)).toBe('the rubric report, 10,000 resamples');
		expect(resamplesPart('the rubric report', 0)).toBe('the rubric report');
	});

	it('reads REPORT_WAIT_MS, refusing what is not a wait', () => {
		expect(reportWaitFromEnv({})).toBe(DEFAULT_REPORT_WAIT_MS);
		expect(reportWaitFromEnv({ REPORT_WAIT_MS: '0' })).toBe(0);
		expect(reportWaitFromEnv({ REPORT_WAIT_MS: '2500' })).toBe(2500);
		for (const bad of ['-1', 'soon', '1.5', '999999999'])
			expect(() => reportWaitFromEnv({ REPORT_WAIT_MS: bad })).toThrow(
				'REPORT_WAIT_MS must be a whole number of milliseconds from 0 to 600000.'
			);
	});
});
