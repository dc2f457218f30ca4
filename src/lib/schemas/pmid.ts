// A PubMed id as files write it: a string of digits or an integer, 1 to 12 digits, kept as its
// digits without leading zeros ("0012345" and 12345 are the same document). Shared by the
// documents import and the run import, which must agree on it to find a cited abstract.
import { z } from 'zod';

/** Most digits a PMID may have (PubMed's ids have 8 today; room to grow, no room for junk). */
export const PMID_MAX_DIGITS = 12;

/** A PMID's canonical text, or null when `value` is not one. */
export function canonicalPmid(value: unknown): string | null {
	const text =
		typeof value === 'number' && Number.isSafeInteger(value)
			? String(value)
			: typeof value === 'string'
				? value.trim()
				: null;
	if (text === null || !/^\d+$/.test(text) || text.length > PMID_MAX_DIGITS) return null;
	const digits = text.replace(/^0+/, '');
	return digits ? digits : null;
}

/** A PMID field: canonical digits, or the issue "must be a PubMed id …". */
export const pmidSchema = z.unknown().transform((v, ctx) => {
	const pmid = canonicalPmid(v);
	if (pmid === null) {
		ctx.addIssue({
			code: 'custom',
			message: `must be a PubMed id: 1 to ${PMID_MAX_DIGITS} digits, as a string or an integer`
		});
		return z.NEVER;
	}
	return pmid;
});
