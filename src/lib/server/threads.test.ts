import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inThreads, shares, threadCount } from './threads';

describe('inThreads', () => {
	it('runs a kernel on each job on threads of their own, results in the jobs’ order', async () => {
		const kernel = `(job) => {
			const squares = new Float64Array(job.n);
			for (let i = 0; i < job.n; i++) squares[i] = (job.start + i) ** 2;
			return { squares, start: job.start };
		}`;
		const jobs = [0, 10, 20, 30].map((start) => ({ start, n: 10 }));
		const results = await inThreads<(typeof jobs)[0], { squares: Float64Array; start: number }>(
			kernel,
			jobs
		);
		expect(results.map((r) => r.start)).toEqual([0, 10, 20, 30]);
		// Typed arrays come back as typed arrays (moved, not turned into plain objects).
		expect(results[2].squares).toBeInstanceOf(Float64Array);
		expect([...results[2].squares]).toEqual(Array.from({ length: 10 }, (_, i) => (20 + i) ** 2));
	});

	it('sums the progress the kernels report', async () => {
		// Each kernel reports its progress over about 0.3 s: at least one report each gets through.
		const kernel = `(job, progress) => {
			const until = Date.now() + 300;
			let done = 0;
			while (Date.now() < until) progress(++done);
			return { done };
		}`;
		const seen: number[] = [];
		const results = await inThreads<object, { done: number }>(kernel, [{}, {}], (d) =>
			seen.push(d)
		);
		expect(seen.length).toBeGreaterThan(1);
		// A running sum of what each thread has done: it never falls, and never passes the total.
		for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
		expect(seen.at(-1)!).toBeLessThanOrEqual(results[0].done + results[1].done);
	});

	it('rejects with the failure of a kernel that throws or does not compile', async () => {
		await expect(
			inThreads(
				`(job) => { if (job.bad) throw new Error('no such shard ' + job.id); return {}; }`,
				[{ id: 1 }, { id: 2, bad: true }]
			)
		).rejects.toThrow(/no such shard 2/);
		await expect(inThreads(`(job) => { return {`, [{}])).rejects.toThrow(SyntaxError);
		// A kernel using what threads do not have (a variable of the caller's module) fails too.
		await expect(inThreads(`(job) => ({ value: notDefinedHere })`, [{}])).rejects.toThrow(
			/notDefinedHere is not defined/
		);
	});

	it('serves calls made together, each its own results, and goes on after a thread stops', async () => {
		const double = `(job) => ({ value: job.x * 2 })`;
		const square = `(job) => ({ value: job.x * job.x })`;
		const xs = [1, 2, 3, 4, 5, 6, 7];
		const [doubled, squared] = await Promise.all([
			inThreads<{ x: number }, { value: number }>(
				double,
				xs.map((x) => ({ x }))
			),
			inThreads<{ x: number }, { value: number }>(
				square,
				xs.map((x) => ({ x }))
			)
		]);
		expect(doubled.map((r) => r.value)).toEqual(xs.map((x) => x * 2));
		expect(squared.map((r) => r.value)).toEqual(xs.map((x) => x * x));
		// A kernel that ends its thread: the call fails, and the pool starts another for the next.
		await expect(inThreads(`() => process.exit(3)`, [{}])).rejects.toThrow(/exit code 3/);
		const after = await inThreads<{ x: number }, { value: number }>(double, [{ x: 21 }]);
		expect(after[0].value).toBe(42);
	});

	it('does not keep the process alive once its jobs are done', () => {
		const threads = fileURLToPath(new URL('./threads.ts', import.meta.url));
		const script = `import { inThreads } from ${JSON.stringify(threads)};
			const [r] = await inThreads('(job) => ({ value: job.x + 1 })', [{ x: 1 }]);
			console.log('result', r.value);`;
		const started = Date.now();
		const out = execFileSync(
			process.execPath,
			['--import', 'tsx', '--input-type=module', '-e', script],
			{
				encoding: 'utf8',
				timeout: 20_000
			}
		);
		expect(out.trim()).toBe('result 2');
		// It ended by itself (the pool's idle thread does not hold it), well within the timeout.
		expect(Date.now() - started).toBeLessThan(20_000);
	});

	it('cuts a job into consecutive shares, as even as can be, none empty', () => {
		expect(shares(10, 3)).toEqual([
			[0, 3],
			[3, 6],
			[6, 10]
		]);
		expect(shares(2, 5)).toEqual([
			[0, 1],
			[1, 2]
		]);
		expect(shares(0, 2)).toEqual([]);
		for (const [total, parts] of [
			[1000, 2],
			[97, 5],
			[7, 8]
		]) {
			const cut = shares(total, parts);
			expect(cut[0][0]).toBe(0);
			expect(cut.at(-1)![1]).toBe(total);
			cut.slice(1).forEach(([from], i) => expect(from).toBe(cut[i][1]));
		}
	});

	it('uses the machine’s cores, at least one and at most eight', () => {
		expect(threadCount()).toBeGreaterThanOrEqual(1);
		expect(threadCount()).toBeLessThanOrEqual(8);
	});
});
