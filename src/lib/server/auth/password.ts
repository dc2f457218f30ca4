import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

// OWASP's argon2id minimum: 19 MiB memory, 2 iterations, 1 lane.
const PARAMS = { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 10;

// Strength as NIST SP 800-63B asks: refuse common, repetitive and sequential passwords. zxcvbn-ts
// (maintained, with its English and common dictionaries) estimates the guesses an attacker needs;
// score 3 means at least 10^8 guesses ("safely unguessable" online).
const MIN_SCORE = 3;
let estimator: ZxcvbnFactory | undefined;
function strength() {
	estimator ??= new ZxcvbnFactory({
		translations: en.translations,
		graphs: common.adjacencyGraphs,
		dictionary: { ...common.dictionary, ...en.dictionary }
	});
	return estimator;
}

/**
 * Why a password is too easy to guess (a sentence for the form), or null when it is strong
 * enough. `related` are words of the account (email, name) a guesser would try first.
 */
export function passwordWeakness(password: string, related: string[] = []): string | null {
	const result = strength().check(password, related);
	if (result.score >= MIN_SCORE) return null;
	const why = result.feedback.warning ?? result.feedback.suggestions[0];
	return `is too easy to guess${why ? ` (${why.replace(/\.$/, '').toLowerCase()})` : ''}; try a few unrelated words`;
}

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
