import { json } from '@sveltejs/kit';
import { sql } from 'drizzle-orm';
import { getDatabaseHandle } from '$lib/server/db';
import type { RequestHandler } from './$types';

/** 200 with the database kind when the database answers; 503 otherwise. */
export const GET: RequestHandler = async () => {
	try {
		const handle = getDatabaseHandle();
		await handle.db.execute(sql`select 1`);
		return json(
			{ status: 'ok', database: handle.kind },
			{ headers: { 'cache-control': 'no-store' } }
		);
	} catch {
		return json(
			{ status: 'unavailable' },
			{ status: 503, headers: { 'cache-control': 'no-store' } }
		);
	}
};
