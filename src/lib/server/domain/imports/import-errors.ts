import type { RecordError } from '../../../schemas/qa-record';
import { DomainError } from '../../errors';

export type { RecordError };

/** An import refused as a whole (nothing was written): the error lists every bad record. */
export function importRejected(errors: RecordError[], total: number): DomainError {
	return new DomainError(
		'invalid',
		`Import rejected: ${errors.length} problem${errors.length === 1 ? '' : 's'} in ${total} record${total === 1 ? '' : 's'}; nothing was imported.`,
		{ records: errors }
	);
}

export interface ImportCounts {
	importId: number;
	created: number;
	unchanged: number;
	updated: number;
	total: number;
}

/** Parses JSON text, turning a syntax error into a rejection at record -1 with a clear reason. */
export function parseJsonFile(text: string, fileName: string): unknown {
	try {
		return JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch (e) {
		throw importRejected(
			[
				{
					index: -1,
					field: '(file)',
					reason: `${fileName} is not valid JSON: ${(e as Error).message}`
				}
			],
			0
		);
	}
}
