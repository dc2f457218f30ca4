import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum: 19 MiB memory, 2 iterations, 1 lane.
const PARAMS = { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 10;

/** Hashes a password with argon2id (the library's default algorithm). */
export function hashPassword(password: string): Promise<string> {
	return hash(password, PARAMS);
}

/** Verifies a password against an argon2id PHC string; false on any malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
	try {
		return await verify(passwordHash, password);
	} catch {
		return false;
	}
}

// A real hash verified when the email is unknown, so timing does not reveal which accounts exist.
let dummyHash: Promise<string> | undefined;
/** Burns the same time as a real verification. */
export async function verifyDummy(password: string): Promise<void> {
	dummyHash ??= hashPassword('not-a-real-account-password');
	await verifyPassword(await dummyHash, password);
}
