import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { qaItem, qaItemVersion, reviewTask } from '../../db/schema';
import { validateQaRecord, type QaRecord } from '../../../schemas/qa-record';
import { recordAudit } from '../audit';
import { contentHash, typedFields } from './fields';
import { valuesFromRecord } from './correction-form';
import { DomainError } from '../../errors';

/**
 * Corrects an item's text: a new version with origin `correction` (earlier versions, and the
 * reviews and snapshots pointing at them, stay as they were). Call inside a transaction.
 */
export async function correctItem(
	tx: Tx,
	actorId: string,
	input: {
		itemId: number;
		/** The corrected ClinIQLink record (checked here by the import's schema of the item's type). */
		record: unknown;
		reason: string;
		/** The version the organiser corrected; a newer current version refuses the correction. */
		baseVersion?: number;
	}
) {
	const [item] = await tx.select().from(qaItem).where(eq(qaItem.id, input.itemId)).for('update');
	if (!item) throw new DomainError('not_found', `There is no item ${input.itemId}.`);
	if (!input.reason.trim())
		throw new DomainError('invalid', 'Give the reason for the correction.', { field: 'reason' });
	if (input.baseVersion !== undefined && input.baseVersion !== item.currentVersion)
		throw new DomainError(
			'conflict',
			`Item ${item.id} was changed meanwhile (it is at version ${item.currentVersion}, you corrected version ${input.baseVersion}). Nothing was saved; open the item again.`
		);
	const checked = validateQaRecord(input.record, 0, item.type);
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
			reason: input.reason.trim(),
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

/** Saves an organiser's correction from the item page: the new version and its audit event. */
export function saveCorrection(
	db: Db,
	actorId: string,
	input: { itemId: number; record: unknown; reason: string; baseVersion: number }
) {
	return db.transaction((tx) => correctItem(tx, actorId, input));
}

/** The item a correction starts from: its current version's record and the form's values. */
export async function correctionStart(db: Db, itemId: number) {
	const [row] = await db
		.select({ item: qaItem, version: qaItemVersion })
		.from(qaItem)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.where(eq(qaItem.id, itemId));
	if (!row) return null;
	const record = row.version.record as QaRecord;
	return { item: row.item, version: row.version, record, values: valuesFromRecord(record) };
}
