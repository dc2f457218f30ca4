import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { qaItem, qaItemVersion, reviewTask } from '../../db/schema';
import { validateQaRecord } from '../../../schemas/qa-record';
import { recordAudit } from '../audit/audit';
import { contentHash, typedFields } from './fields';
import { DomainError } from '../../errors';

/**
 * Corrects an item's text: a new version with origin `correction` (earlier versions, and the
 * reviews and snapshots pointing at them, stay as they were). Call inside a transaction.
 */
export async function correctItem(
	tx: Tx,
	actorId: string,
	input: { itemId: number; recordJson: string; reason: string }
) {
	const [item] = await tx.select().from(qaItem).where(eq(qaItem.id, input.itemId)).for('update');
	if (!item) throw new DomainError('not_found', `There is no item ${input.itemId}.`);
	let raw: unknown;
	try {
		raw = JSON.parse(input.recordJson);
	} catch (e) {
		throw new DomainError(
			'invalid',
			`The corrected record is not valid JSON: ${(e as Error).message}`
		);
	}
	const checked = validateQaRecord(raw, 0, item.type);
	if (!checked.ok)
		throw new DomainError(
			'invalid',
			`The corrected record is invalid: ${checked.errors.map((e) => `${e.field} ${e.reason}`).join('; ')}`
		);
	if (checked.record.type !== item.type)
		throw new DomainError('invalid', `A correction cannot change the type (${item.type}).`);
	const [current] = await tx
		.select()
		.from(qaItemVersion)
		.where(eq(qaItemVersion.id, item.currentVersionId!));
	const hash = contentHash(checked.record);
	if (hash === current.contentHash)
		throw new DomainError('invalid', 'The corrected record is identical to the current version.');
	const [version] = await tx
		.insert(qaItemVersion)
		.values({
			itemId: item.id,
			version: item.currentVersion + 1,
			record: checked.record,
			contentHash: hash,
			origin: 'correction',
			createdBy: actorId,
			reason: input.reason,
			...typedFields(checked.record)
		})
		.returning();
	await tx
		.update(qaItem)
		.set({
			currentVersionId: version.id,
			currentVersion: version.version,
			question: version.question,
			updatedAt: sql`now()`
		})
		.where(eq(qaItem.id, item.id));
	await recordAudit(tx, {
		actorId,
		action: 'item.correct',
		objectType: 'qa_item',
		objectId: item.id,
		before: { version: current.version, record: current.record },
		after: { version: version.version, record: version.record, reason: input.reason }
	});
	return version;
}

/** Withdraws an item from verification and snapshots; its open review tasks are cancelled. */
export async function withdrawItem(tx: Tx, actorId: string, itemId: number, reason: string) {
	const [item] = await tx
		.update(qaItem)
		.set({ status: 'withdrawn', updatedAt: sql`now()` })
		.where(eq(qaItem.id, itemId))
		.returning();
	if (!item) throw new DomainError('not_found', `There is no item ${itemId}.`);
	await tx
		.update(reviewTask)
		.set({ state: 'cancelled', leasedBy: null, leaseToken: null, leaseExpiresAt: null })
		.where(
			sql`${reviewTask.itemId} = ${itemId} and ${inArray(reviewTask.state, ['pending', 'leased'])}`
		);
	await recordAudit(tx, {
		actorId,
		action: 'item.withdraw',
		objectType: 'qa_item',
		objectId: itemId,
		after: { reason }
	});
	return item;
}
