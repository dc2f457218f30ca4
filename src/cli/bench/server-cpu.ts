// PostgreSQL's own CPU accounting for the benches: the user + system time of the database's backend
// processes, read from /proc when the server runs on this machine (as on the bench machine).
import { readFileSync } from 'node:fs';

/** Runs one statement and returns its rows (the benches' raw driver or drizzle's execute). */
export type RowsOf = (text: string) => Promise<Record<string, unknown>[]>;

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds a process has used (utime + stime), or null when /proc cannot tell. */
function processCpuMs(pid: number): number | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
	} catch {
		return null;
	}
}

/**
 * A reader of the CPU the client backends of the current database have used: each call returns a
 * map of backend pid to CPU milliseconds so far, or null when the server is not on this machine
 * (its backends are not in /proc). `cpuBetween` takes two readings' difference: a backend that
 * started between them counts from zero, one that ended counts up to the first reading only.
 */
export function backendCpu(rows: RowsOf) {
	return async (): Promise<Map<number, number> | null> => {
		const backends = await rows(
			`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`
		);
		const reading = new Map<number, number>();
		for (const { pid } of backends) {
			const ms = processCpuMs(Number(pid));
			if (ms === null) return null;
			reading.set(Number(pid), ms);
		}
		return reading;
	};
}

/** CPU milliseconds used between two readings of backendCpu (null when either is null). */
export function cpuBetween(
	before: Map<number, number> | null,
	after: Map<number, number> | null
): number | null {
	if (!before || !after) return null;
	let ms = 0;
	for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
	return ms;
}

/** How far the database's CPU per action may be above its floor's (issue target: 1.5×). */
export const DB_CPU_TARGET = 1.5;

/**
 * The line comparing PostgreSQL CPU per action of the portal with the floor's, with the ratio and
 * the target, or a line saying why it could not be read.
 */
export function dbCpuLine(
	label: string,
	portal: { actions: number; dbCpuMs: number | null },
	floor: { actions: number; dbCpuMs: number | null }
): string {
	if (portal.dbCpuMs === null || floor.dbCpuMs === null || !portal.actions || !floor.actions)
		return `  ${label}: PostgreSQL CPU per action not read (the server is not on this machine, or no action ran)`;
	const p = portal.dbCpuMs / portal.actions;
	const f = floor.dbCpuMs / floor.actions;
	const ratio = p / f;
	return `  ${label}: PostgreSQL CPU per action ${p.toFixed(2)} ms vs floor ${f.toFixed(2)} ms = ${ratio.toFixed(2)}× (target ≤ ${DB_CPU_TARGET}×: ${ratio <= DB_CPU_TARGET ? 'met' : 'MISSED'})`;
}
