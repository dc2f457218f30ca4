import { createScratchDatabase, type ScratchDatabase } from '$lib/server/db/scratch';
import type { Io } from '../io';

/** The PostgreSQL server benches run on. */
export const BENCH_SERVER_URL =
	process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database of the bench's own on the bench server, or null (with the reason printed). */
export async function benchDatabase(io: Io, prefix: string): Promise<ScratchDatabase | null> {
	try {
		return await createScratchDatabase(BENCH_SERVER_URL, { prefix });
	} catch (e) {
		io.stdout(
			` PostgreSQL: skipped, cannot create a database (${(e as Error).message}); set BENCH_DATABASE_URL`
		);
		return null;
	}
}
