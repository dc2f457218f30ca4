/**
 * The start-up's account of itself: one line per step as it ends, with what it did and how long
 * it took ("migrations: 26 applied… 3.0 s"), so a first start that creates and seeds the database
 * never sits silent.
 */
export interface StepLog {
	/**
	 * Runs `work` and prints `<label>… <seconds> s`, or `<label>: <detail>… <seconds> s` when
	 * `detail` describes the result. A failed step prints its label with "failed after".
	 */
	step<T>(label: string, work: () => Promise<T>, detail?: (result: T) => string): Promise<T>;
	/** Prints a line as it is. */
	note(line: string): void;
	/** Prints the total since the log began: `<label> (<seconds> s since start)`. */
	done(label: string): void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function stepLog(
	print: (line: string) => void,
	clock: () => number = () => performance.now()
): StepLog {
	const began = clock();
	return {
		async step(label, work, detail) {
			const start = clock();
			let result;
			try {
				result = await work();
			} catch (e) {
				print(`${label} failed after ${seconds(clock() - start)}`);
				throw e;
			}
			const what = detail ? `${label}: ${detail(result)}` : label;
			print(`${what}… ${seconds(clock() - start)}`);
			return result;
		},
		note: print,
		done(label) {
			print(`${label} (${seconds(clock() - began)} since start)`);
		}
	};
}

/** A log that prints nothing (scripts and tests that do not want the account). */
export const silentLog: StepLog = stepLog(() => {});
