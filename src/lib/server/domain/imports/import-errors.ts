import type { RecordError } from '../../../schemas/qa-record';
import { DomainError } from '../../errors';

export type { RecordError };

/** An import refused as a whole (nothing was written): the error lists every bad record. */
export function importRejected(errors: RecordError[], total: number): DomainError {
	const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
	const bad = new Set(
		errors.filter((e) => e.index >= 0).map((e) => `${e.file ?? ''}\u0000${e.index}`)
	);
	const where = bad.size
		? ` in ${s(bad.size, 'record')} of ${total}`
		: errors.some((e) => e.index < 0)
			? ' in the file'
			: '';
	return new DomainError(
		'invalid',
		`Import rejected: ${s(errors.length, 'problem')}${where}; nothing was imported.`,
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
