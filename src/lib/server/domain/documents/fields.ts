// The fields of a document record ({pmid, title?, abstract}) and their limits. The abstract is
// split into the sentences assessors cite as evidence when the record is read.
import { z } from 'zod';
import { splitSentences } from '../../../text/sentences';
import { pmidSchema } from '../../../schemas/pmid';
import { TEXT_LIMITS } from '../../../schemas/text';
import type { RecordError } from '../imports';
import { validate, type Check, type RawRecord } from '../question-sets';

/** Longest abstract, in characters (PubMed abstracts stay well under 10,000). */
export const ABSTRACT_LIMIT = 100_000;

const longer = (n: number) => `is longer than ${n.toLocaleString('en')} characters`;

const documentSchema = z.object({
	pmid: pmidSchema,
	title: z
		.string({ error: 'must be a string' })
		.max(TEXT_LIMITS.field, longer(TEXT_LIMITS.field))
		.nullish()
		.transform((t) => t?.trim() ?? ''),
	abstract: z
		.string({ error: 'must be a string' })
		.max(ABSTRACT_LIMIT, longer(ABSTRACT_LIMIT))
		.refine((a) => a.trim().length > 0, 'must not be empty')
});

/** A document record as stored. */
export interface DocumentFields {
	pmid: string;
	title: string;
	abstract: string;
	sentences: string[];
}

const MEANT: Record<string, string> = {
	id: 'pmid',
	PMID: 'pmid',
	text: 'abstract',
	contents: 'abstract',
	body: 'abstract'
};

/** A document record's fields (the abstract split into sentences), or its problems in `errors`. */
export function checkDocument(raw: RawRecord, errors: RecordError[]): Check<DocumentFields> {
	return validate(
		raw,
		documentSchema,
		['pmid', 'title', 'abstract'],
		MEANT,
		(v) => ({
			pmid: v.pmid,
			title: v.title,
			abstract: v.abstract,
			sentences: splitSentences(v.abstract)
		}),
		errors
	);
}
