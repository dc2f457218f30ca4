import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { allAuditEvents, AUDIT_CSV_HEADER, auditCsvLine } from '$lib/server/domain/audit';
import { readFilters } from '../filters';
import type { RequestHandler } from './$types';

/** The filtered audit events as CSV, newest first, streamed in keyset batches. */
export const GET: RequestHandler = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const read = readFilters(url);
	if (!read.ok) error(400, read.message);
	const db = getDb();
	const encoder = new TextEncoder();
	const batches = allAuditEvents(db, read.filter);
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(encoder.encode(AUDIT_CSV_HEADER.join(',') + '\r\n'));
		},
		async pull(controller) {
			const next = await batches.next();
			if (next.done) controller.close();
			else controller.enqueue(encoder.encode(next.value.map(auditCsvLine).join('')));
		},
		async cancel() {
			await batches.return(undefined);
		}
	});
	const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '');
	return new Response(stream, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="audit-${stamp}Z.csv"`,
			'cache-control': 'no-store'
		}
	});
};
