import { expect, it } from 'vitest';
import { describeEachDb } from './db/testing';
import { prepareDatabase } from './startup';
import { stepLog } from './startup-log';

const TIMED = /… (\d+\.\d) s$/;

describeEachDb('start-up account', (h) => {
	it('reports each step of a first start in order, with its time, and only migrations after', async () => {
		const lines: string[] = [];
		expect(
			await prepareDatabase(
				h,
				stepLog((l) => lines.push(l)),
				true
			)
		).toBe(true);
		const steps = lines.filter((l) => TIMED.test(l));
		expect(steps.map((l) => l.replace(TIMED, ''))).toEqual([
			'migrations: up to date',
			'demo: accounts: 7 (argon2id)',
			'demo: content',
			'demo: consent',
			'demo: reviews',
			'demo: qualification round and gold checks',
			'demo: rubric study',
			'demo: pairwise study',
			'demo: evidence study',
			'demo: rankings',
			'demo: scoring run'
		]);
		for (const l of steps) expect(Number(TIMED.exec(l)![1])).toBeGreaterThanOrEqual(0);
		// The passwords are still printed once, after the steps.
		expect(lines.findIndex((l) => l.includes('Demo accounts'))).toBeGreaterThan(
			lines.indexOf(steps.at(-1)!)
		);

		const again: string[] = [];
		expect(
			await prepareDatabase(
				h,
				stepLog((l) => again.push(l)),
				true
			)
		).toBe(false);
		expect(again.map((l) => l.replace(TIMED, ''))).toEqual(['migrations: up to date']);
	});
});
