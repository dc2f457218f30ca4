// The organisers' gold and attempt forms, shared by a study's gold page and the reviewers' round:
// a gold file chosen or pasted (one of the two, within a size), and another attempt for a rater.
import { z } from 'zod';
import { MAX_GRANTED_ATTEMPTS } from './domain/quality';
import { DomainError, failWith } from './errors';
import { field, readForm } from './forms';

/** Largest gold file (bytes) or pasted text (characters): 10,000 records fit with room to spare. */
export const MAX_GOLD_SIZE = 8 * 1024 * 1024;

const goldForm = z.object({ file: field.file(), text: z.string().default('') });

/**
 * The `import` action of a gold form: reads the chosen file or the pasted JSON (one, not both,
 * within MAX_GOLD_SIZE) and hands it to `run`, all or nothing; a refusal keeps pasted text that is
 * not too long to send back.
 */
export async function goldImportAction(
	request: Request,
	run: (content: string) => Promise<number>
) {
	const input = await readForm(request, goldForm, { extra: { kind: 'import' as const } });
	if (!input.ok) return input.failure;
	const { file, text } = input.data;
	const extra = { kind: 'import' as const, text: text.length <= 200_000 ? text : '' };
	try {
		if ((file?.size ?? 0) > MAX_GOLD_SIZE || text.length > MAX_GOLD_SIZE)
			throw new DomainError(
				'invalid',
				`The gold file is larger than ${MAX_GOLD_SIZE / 1024 / 1024} MB, the most one may be.`
			);
		const chosen = file !== undefined && file.size > 0;
		if (chosen && text.trim() !== '')
			throw new DomainError('invalid', 'Choose a gold file or paste its JSON, not both.');
		const content = chosen ? await file.text() : text;
		if (content.trim() === '')
			throw new DomainError('invalid', 'Choose a gold file or paste its JSON.');
		return { kind: 'import' as const, imported: await run(content) };
	} catch (e) {
		return failWith(e, extra);
	}
}

/** The "another attempt" form: who (`missing` says how to choose them), how many, why. */
export const grantForm = (missing: string) =>
	z.object({
		raterId: z.string().min(1, missing).max(100),
		attempts: z.coerce
			.number({ message: 'Give the number of attempts to add.' })
			.int('Give a whole number of attempts.')
			.min(1, 'Add at least one attempt.')
			.max(MAX_GRANTED_ATTEMPTS, `Add at most ${MAX_GRANTED_ATTEMPTS} attempts at once.`),
		reason: z.string().trim().min(1, 'Say why, for the record.').max(2000)
	});
