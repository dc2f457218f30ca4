import { hash } from 'node:crypto';

// Lower-case letters and digits without look-alikes (l, o, 0, 1).
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A random string from a CSPRNG; 24 characters carry 120 bits of entropy. */
export function randomId(length = 24): string {
	const bytes = new Uint8Array(length);
	crypto.getRandomValues(bytes);
	let id = '';
	// 256 is a multiple of 32, so `byte >> 3` is unbiased.
	for (const byte of bytes) id += ALPHABET[byte >> 3];
	return id;
}

/** Hex SHA-256 of a UTF-8 string. */
export function sha256Hex(value: string): string {
	return hash('sha256', value, 'hex');
}
