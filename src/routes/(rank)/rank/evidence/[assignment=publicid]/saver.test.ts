import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSaver, type SaveOutcome, type SaveStatus } from './saver';

describe('saving as the assessor works', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('posts the last state of a step once, after the delay', async () => {
		const posted: unknown[] = [];
		const saver = createSaver(
			async (s) => {
				posted.push(s);
				return { ok: true, leased: true };
			},
			() => {}
		);
		saver.schedule('s1', { v: 1 });
		saver.schedule('s1', { v: 2 });
		await vi.advanceTimersByTimeAsync(299);
		expect(posted).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(posted).toEqual([{ v: 2 }]);
	});

	it('never lets a later post overtake an earlier one', async () => {
		const order: string[] = [];
		let release: () => void = () => {};
		const slow = new Promise<void>((r) => (release = r));
		const saver = createSaver(
			async (s) => {
				const { v } = s as { v: string };
				order.push(`start ${v}`);
				if (v === 'a') await slow;
				order.push(`end ${v}`);
				return { ok: true, leased: true };
			},
			() => {}
		);
		saver.schedule('s1', { v: 'a' });
		await vi.advanceTimersByTimeAsync(300);
		saver.schedule('s1', { v: 'b' });
		await vi.advanceTimersByTimeAsync(300);
		expect(order).toEqual(['start a']);
		release();
		await vi.runAllTimersAsync();
		expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
	});

	it('reports a refusal and posts the step again on retry; reports a lost lease', async () => {
		const statuses: SaveStatus[] = [];
		let leasedSeen: boolean | undefined;
		let answer: SaveOutcome = { ok: false, message: 'The study is closed.' };
		const posted: unknown[] = [];
		const saver = createSaver(
			async (s) => {
				posted.push(s);
				return answer;
			},
			(s, leased) => {
				statuses.push(s);
				if (leased !== undefined) leasedSeen = leased;
			}
		);
		saver.schedule('answers', { answers: true });
		expect(await saver.flush()).toBe(false);
		expect(statuses.at(-1)).toEqual({ kind: 'error', message: 'The study is closed.' });
		answer = { ok: true, leased: false };
		expect(await saver.retry()).toBe(true);
		expect(posted).toEqual([{ answers: true }, { answers: true }]);
		expect(statuses.at(-1)).toEqual({ kind: 'saved' });
		expect(leasedSeen).toBe(false);
	});
});
