import type { RecordError } from '../../../schemas/qa-record';

export type { RecordError };

/** An import refused as a whole; nothing was written. */
export class ImportRejected extends Error {
	constructor(
		readonly errors: RecordError[],
		readonly total: number
	) {
		const shown = errors
			.slice(0, 5)
			.map((e) => `${e.file ? `${e.file} ` : ''}record ${e.index} → ${e.field} → ${e.reason}`)
			.join('; ');
		super(
			`Import rejected: ${errors.length} problem${errors.length === 1 ? '' : 's'} in ${total} record${total === 1 ? '' : 's'}; nothing was imported. ${shown}${errors.length > 5 ? '; …' : ''}`
		);
		this.name = 'ImportRejected';
	}
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
		throw new ImportRejected(
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
