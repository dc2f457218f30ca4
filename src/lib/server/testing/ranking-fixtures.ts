import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { model, qaItem, user } from '../db/schema';
import type { QaTypeValue } from '../../schemas/qa-record';
import { randomId } from '../ids';
import { importQaFiles } from '../domain/qa-import';
import { importResponses } from '../domain/response-import';
import { validRecord } from './records';

const actor = { userId: null, label: 'test' };

/**
 * Imports `count` items (cycling through `types`) and a response from each model to each item,
 * except the (item index, model) pairs listed in `skip`.
 */
export async function seedRankingContent(
	db: Db,
	options: {
		count: number;
		models: string[];
		types?: QaTypeValue[];
		skip?: { item: number; model: string }[];
	}
) {
	const types = options.types ?? ['short_answer'];
	const records = Array.from({ length: options.count }, (_, i) =>
		validRecord(types[i % types.length], 1000 + i)
	);
	await importQaFiles(db, [{ fileName: 'items.json', text: JSON.stringify(records) }], { actor });
	const items = await db.select({ id: qaItem.id }).from(qaItem).orderBy(qaItem.id);
	const itemIds = items.map((i) => i.id);
	const lines: string[] = [];
	itemIds.forEach((id, i) => {
		for (const [j, m] of options.models.entries()) {
			if (options.skip?.some((s) => s.item === i && s.model === m)) continue;
			lines.push(
				JSON.stringify({ item: id, model: m, response: `Answer number ${j + 1} to item ${i}.` })
			);
		}
	});
	if (lines.length)
		await importResponses(db, [{ fileName: 'responses.jsonl', text: lines.join('\n') }], {
			actor
		});
	const models = await db
		.select({ id: model.id, name: model.name })
		.from(model)
		.where(inArray(model.name, options.models));
	const modelIds = options.models.map((n) => models.find((m) => m.name === n)!.id);
	return { itemIds, modelIds };
}

/** Inserts accounts directly (no password hashing, which is slow and beside the point here). */
export async function insertUsers(db: Db, n: number, roles: ('physician' | 'organiser')[]) {
	const rows = Array.from({ length: n }, () => {
		const id = randomId();
		return {
			id,
			email: `${id}@test.local`,
			displayName: `User ${id.slice(0, 4)}`,
			pseudonym: `P-${id.slice(0, 6).toUpperCase()}`,
			roles
		};
	});
	await db.insert(user).values(rows);
	return rows.map((r) => r.id);
}
