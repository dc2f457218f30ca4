import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { dataset, type Dataset } from '../../db/schema';
import { PASSAGE_POLICIES, QUEUE_ORDERS } from '../../../constants';
import { randomId } from '../../ids';
import { recordAudit } from '../audit';
import { applyPassageSetting, refreshSortKeys } from '../review';
import { DomainError } from '../../errors';
import { applySamplePlan, planSampleChange, type SamplePlan } from './sampling';

/** Verification settings of a dataset as an organiser edits them (share in percent on forms). */
export const datasetSettingsSchema = z.object({
	datasetId: z.coerce.number().int().positive(),
	secondaryPercent: z.coerce
		.number('The secondary share must be a number.')
		.min(0, 'The secondary share must be from 0 to 100 %.')
		.max(100, 'The secondary share must be from 0 to 100 %.'),
	seed: z
		.string()
		.trim()
		.max(100, 'The seed is at most 100 characters.')
		.optional()
		.transform((v) => v || undefined),
	queueOrder: z.enum(QUEUE_ORDERS, 'Choose the order reviewers get items in.').default('seeded'),
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
		.max(5, 'The relevance gap must be from 1 to 5.'),
	/** Items without an imported passage: wait for it or review without it; absent = unchanged. */
	withoutPassage: z
		.enum(PASSAGE_POLICIES, 'Choose what happens to items without their passage.')
		.optional(),
	/** The key of the sample change the organiser saw and confirmed. */
	confirm: z.string().max(64).optional()
});
export type DatasetSettingsInput = z.input<typeof datasetSettingsSchema>;

/** The result of saving settings: saved, or a sample change to confirm first. */
export type SettingsOutcome =
	| { status: 'saved'; dataset: Dataset; plan: SamplePlan | null }
	| { status: 'confirm'; plan: SamplePlan; stale: boolean };

const pick = (d: Dataset) => ({
	secondaryShare: d.secondaryShare,
	seed: d.sampleSeed,
	queueOrder: d.queueOrder,
	leaseMinutes: d.leaseMinutes,
	disagreeOnVerdict: d.disagreeOnVerdict,
	relevanceGap: d.relevanceGap,
	reviewWithoutPassage: d.reviewWithoutPassage
});

async function save(tx: Tx, actorId: string, input: z.output<typeof datasetSettingsSchema>) {
	const [before] = await tx
		.select()
		.from(dataset)
		.where(eq(dataset.id, input.datasetId))
		.for('update');
	if (!before) throw new DomainError('not_found', `There is no dataset ${input.datasetId}.`);
	const share = input.secondaryPercent / 100;
	const seed = input.seed ?? before.sampleSeed ?? randomId(12);
	const resample =
		share !== before.secondaryShare || seed !== before.sampleSeed || !before.sampledAt;
	const plan = resample ? await planSampleChange(tx, before.id, share, seed) : null;
	const changes =
		plan !== null &&
		(plan.add.length + plan.reopen.length + plan.remove.length > 0 ||
			(before.sampleSeed !== null && seed !== before.sampleSeed));
	if (plan && changes && input.confirm !== plan.key)
		return { status: 'confirm', plan, stale: input.confirm !== undefined } as const;
	const [after] = await tx
		.update(dataset)
		.set({
			secondaryShare: share,
			sampleSeed: seed,
			sampledAt: before.sampledAt ?? new Date(),
			queueOrder: input.queueOrder,
			leaseMinutes: input.leaseMinutes,
			disagreeOnVerdict: input.disagreeOnVerdict,
			relevanceGap: input.relevanceGap,
			reviewWithoutPassage:
				input.withoutPassage === undefined
					? before.reviewWithoutPassage
					: input.withoutPassage === 'review'
		})
		.where(eq(dataset.id, input.datasetId))
		.returning();
	if (plan) await applySamplePlan(tx, plan);
	if (after.reviewWithoutPassage !== before.reviewWithoutPassage)
		await applyPassageSetting(tx, after.id, after.reviewWithoutPassage);
	if (seed !== before.sampleSeed || input.queueOrder !== before.queueOrder)
		await refreshSortKeys(tx, after.id);
	await recordAudit(tx, {
		actorId,
		action: 'dataset.settings',
		objectType: 'dataset',
		objectId: after.id,
		before: { ...pick(before), sampled: plan?.before },
		after: {
			...pick(after),
			sampled: plan?.after,
			sample: plan && {
				total: plan.total,
				added: plan.add.length,
				reopened: plan.reopen.length,
				removed: plan.remove.length,
				kept: plan.kept,
				redrawn: plan.redraw,
				perType: plan.perType
			}
		}
	});
	return { status: 'saved', dataset: after, plan } as const;
}

/**
 * Saves a dataset's share, seed, queue order, lease length, disagreement rules and what happens to
 * items without their passage (their tasks wait or are released at once), with an audit
 * event of before and after. When the share or seed changes which items are in the secondary
 * sample, nothing is saved until the organiser confirms that exact change (`confirm` = its key);
 * a confirmation of a change the dataset has since outgrown gets the new plan back, `stale`.
 */
export async function updateDatasetSettings(
	db: Db,
	actorId: string,
	input: z.output<typeof datasetSettingsSchema>
): Promise<SettingsOutcome> {
	return db.transaction((tx) => save(tx, actorId, input));
}

/** Sets a dataset's secondary share (and optionally seed) and applies the sample change at once. */
export async function setSecondaryShare(
	db: Db,
	actorId: string,
	input: { datasetId: number; share: number; seed?: string }
): Promise<SamplePlan | null> {
	return db.transaction(async (tx) => {
		const [ds] = await tx.select().from(dataset).where(eq(dataset.id, input.datasetId));
		if (!ds) throw new DomainError('not_found', `There is no dataset ${input.datasetId}.`);
		const settings = {
			datasetId: ds.id,
			secondaryPercent: input.share * 100,
			seed: input.seed,
			queueOrder: ds.queueOrder,
			leaseMinutes: ds.leaseMinutes,
			disagreeOnVerdict: ds.disagreeOnVerdict,
			relevanceGap: ds.relevanceGap
		};
		const first = await save(tx, actorId, settings);
		if (first.status === 'saved') return first.plan;
		const confirmed = await save(tx, actorId, { ...settings, confirm: first.plan.key });
		return confirmed.plan;
	});
}
