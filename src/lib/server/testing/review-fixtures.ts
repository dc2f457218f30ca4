import { QA_TYPE_VALUES } from '../../schemas/qa-record';
import type { Db } from '../db/client';
import { user, type User } from '../db/schema';
import type { Role } from '../db/schema/enums';
import { randomId } from '../ids';
import { importQaFiles } from '../domain/qa-import';
import { validRecord } from './records';

/** Users inserted directly (no password hashing), for tests and benchmarks. */
export async function seedUsers(db: Db, n: number, roles: Role[] = ['reviewer']): Promise<User[]> {
	return db
		.insert(user)
		.values(
			Array.from({ length: n }, (_, i) => ({
				id: randomId(),
				email: `${roles[0]}-${i}-${randomId(6)}@test.local`,
				displayName: `${roles[0]} ${i}`,
				pseudonym: `P-${randomId(8)}`,
				roles
			}))
		)
		.returning();
}

/** Imports `perType` items of each of the seven types through the normal import code. */
export async function seedItems(db: Db, perType: number, dataset?: string): Promise<void> {
	const records = QA_TYPE_VALUES.flatMap((type) =>
		Array.from({ length: perType }, (_, i) => validRecord(type, i + 1))
	);
	await importQaFiles(db, [{ fileName: 'items.json', text: JSON.stringify(records) }], {
		actor: { userId: null, label: 'test' },
		dataset
	});
}
