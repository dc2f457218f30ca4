// Saving as the assessor works: each step (the answer as a whole, or one sentence's whole state)
// is posted `delay` ms after its last change, one post at a time in the order they were made, so a
// later state of a sentence is never overtaken by an earlier one. A failed step waits for a retry
// (a newer change of the same sentence replaces it).

export type SaveOutcome = { ok: true; leased: boolean } | { ok: false; message: string };
export type SaveStatus =
	| { kind: 'idle' }
	| { kind: 'pending' }
	| { kind: 'saving' }
	| { kind: 'saved' }
	| { kind: 'error'; message: string };

export interface Saver {
	/** Saves `step` under `key` after the delay (a newer step of the same key replaces it). */
	schedule(key: string, step: unknown): void;
	/** Posts everything waiting now; true when all is saved. */
	flush(): Promise<boolean>;
	/** Posts the failed steps again. */
	retry(): Promise<boolean>;
}

export function createSaver(
	post: (step: unknown) => Promise<SaveOutcome>,
	report: (status: SaveStatus, leased?: boolean) => void,
	delay = 300
): Saver {
	const waiting = new Map<string, unknown>();
	const failed = new Map<string, unknown>();
	let timer: ReturnType<typeof setTimeout> | null = null;
	let chain: Promise<void> = Promise.resolve();
	let inFlight = 0;
	let lastError = '';

	async function send(key: string, step: unknown) {
		let outcome: SaveOutcome;
		try {
			outcome = await post(step);
		} catch {
			outcome = { ok: false, message: 'The connection failed.' };
		}
		if (outcome.ok) {
			if (failed.get(key) === step) failed.delete(key);
			report({ kind: 'saving' }, outcome.leased);
		} else {
			if (!waiting.has(key)) failed.set(key, step);
			lastError = outcome.message;
		}
	}

	function drain(): Promise<boolean> {
		if (timer) clearTimeout(timer);
		timer = null;
		const batch = [...waiting];
		waiting.clear();
		for (const [key, step] of batch) {
			failed.delete(key);
			inFlight++;
			report({ kind: 'saving' });
			chain = chain.then(() => send(key, step)).finally(() => inFlight--);
		}
		return chain.then(() => {
			const done = !failed.size && !waiting.size;
			if (!inFlight && !waiting.size)
				report(done ? { kind: 'saved' } : { kind: 'error', message: lastError });
			return done;
		});
	}

	return {
		schedule(key, step) {
			waiting.set(key, step);
			failed.delete(key);
			report({ kind: 'pending' });
			if (timer) clearTimeout(timer);
			timer = setTimeout(() => void drain(), delay);
		},
		flush: drain,
		retry() {
			for (const [key, step] of failed) if (!waiting.has(key)) waiting.set(key, step);
			failed.clear();
			return drain();
		}
	};
}
