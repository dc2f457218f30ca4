import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { dataset } from '../../db/schema';
import { recordAudit } from '../audit/audit';
import { DomainError } from '../../errors';

/** Verification settings of a dataset as an organiser edits them (share in percent on forms). */
export const datasetSettingsSchema = z.object({
	datasetId: z.coerce.number().int().positive(),
	secondaryPercent: z.coerce
		.number('The secondary share must be a number.')
		.min(0, 'The secondary share must be from 0 to 100 %.')
		.max(100, 'The secondary share must be from 0 to 100 %.'),
	leaseMinutes: z.coerce
		.number('The lease length must be a number of minutes.')
		.int('The lease length must be whole minutes.')
		.min(1, 'A lease lasts 1 to 1440 minutes.')
		.max(1440, 'A lease lasts 1 to 1440 minutes.'),
	disagreeOnVerdict: z
		.union([z.literal('on'), z.literal('true'), z.literal(''), z.undefined()])
		.transform((v) => v === 'on' || v === 'true'),
	relevanceGap: z.coerce
		.number('The relevance gap must be a number.')
		.int('The relevance gap must be a whole number.')
		.min(1, 'The relevance gap must be from 1 to 5.')
		.max(5, 'The relevance gap must be from 1 to 5.')
});

/** Saves a dataset's share, lease length and disagreement rules, with an audit event. */
export async function updateDatasetSettings(
	db: Db,
	actorId: string,
	input: z.infer<typeof datasetSettingsSchema>
) {
	return db.transaction(async (tx) => {
		const [before] = await tx.select().from(dataset).where(eq(dataset.id, input.datasetId));
		if (!before) throw new DomainError('not_found', `There is no dataset ${input.datasetId}.`);
		const [after] = await tx
			.update(dataset)
			.set({
				secondaryShare: input.secondaryPercent / 100,
				leaseMinutes: input.leaseMinutes,
				disagreeOnVerdict: input.disagreeOnVerdict,
				relevanceGap: input.relevanceGap
			})
			.where(eq(dataset.id, input.datasetId))
			.returning();
		const pick = (d: typeof before) => ({
			secondaryShare: d.secondaryShare,
			leaseMinutes: d.leaseMinutes,
			disagreeOnVerdict: d.disagreeOnVerdict,
			relevanceGap: d.relevanceGap
		});
		await recordAudit(tx, {
			actorId,
			action: 'dataset.settings',
			objectType: 'dataset',
			objectId: after.id,
			before: pick(before),
			after: pick(after)
		});
		return after;
	});
}
