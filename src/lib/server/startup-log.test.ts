import { expect, it } from 'vitest';
import { stepLog } from './startup-log';

it('prints each step as it ends with its seconds, a failed one too, and the total', async () => {
	let now = 0;
	const lines: string[] = [];
	const log = stepLog(
		(l) => lines.push(l),
		() => now
	);
	const n = await log.step(
		'migrations',
		async () => {
			now += 3_040;
			return 26;
		},
		(applied) => `${applied} applied`
	);
	expect(n).toBe(26);
	await log.step('demo: content', async () => {
		now += 900;
	});
	await expect(
		log.step('job queue', async () => {
			now += 100;
			throw new Error('no');
		})
	).rejects.toThrow('no');
	log.done('ready');
	expect(lines).toEqual([
		'migrations: 26 applied… 3.0 s',
		'demo: content… 0.9 s',
		'job queue failed after 0.1 s',
		'ready (4.0 s since start)'
	]);
});
