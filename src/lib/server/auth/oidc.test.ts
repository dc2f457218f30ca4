import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startTestProvider, type TestProvider } from '../fixtures/oidc-provider';
import {
	allowsInsecure,
	beginSignIn,
	completeSignIn,
	decodeTransaction,
	encodeTransaction,
	openIdentity,
	sealIdentity,
	sealedInstitution,
	signInFailure
} from './oidc';

// The OpenID Connect client against a real provider (oidc-provider) on 127.0.0.1: the code flow
// with PKCE, state and nonce, and what each broken check does.
const REDIRECT = 'http://127.0.0.1:5999/login/sso/callback';
const context = { institutionId: 7, invitation: null, redirectTo: '/' };

describe('single sign-on against a real OpenID provider', () => {
	let provider: TestProvider;
	beforeAll(async () => {
		provider = await startTestProvider({
			redirectUris: [REDIRECT],
			domain: 'stexample.test',
			accounts: { unverified: { email_verified: false } }
		});
	});
	afterAll(() => provider?.stop());

	it('signs in with the code flow: PKCE S256, state and nonce, and reads the ID token', async () => {
		const { url, transaction } = await beginSignIn(provider, REDIRECT, context);
		expect(url.origin).toBe(provider.issuer);
		expect(url.searchParams.get('code_challenge_method')).toBe('S256');
		expect(url.searchParams.get('state')).toBe(transaction.state);
		expect(url.searchParams.get('nonce')).toBe(transaction.nonce);
		expect(url.searchParams.get('code_challenge')).not.toBe(transaction.verifier);
		const back = await signInAtProvider(url, 'pat.doe');
		expect(back.origin + back.pathname).toBe(REDIRECT);
		const claims = await completeSignIn(provider, back, transaction);
		expect(claims).toEqual({
			issuer: provider.issuer,
			subject: 'pat.doe',
			email: 'pat.doe@stexample.test',
			emailVerified: true,
			name: 'Pat Doe'
		});
		// A code works once.
		await expect(completeSignIn(provider, back, transaction)).rejects.toThrow();
	});

	it('refuses a callback whose state is not the one the sign-in started with', async () => {
		const { url, transaction } = await beginSignIn(provider, REDIRECT, context);
		const back = await signInAtProvider(url, 'mallory');
		const error = await completeSignIn(provider, back, { ...transaction, state: 'x'.repeat(43) })
			.then(() => null)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Error);
		expect(signInFailure(error)).toBe('unverified');
	});

	it('refuses an ID token whose nonce differs, and a code without its PKCE verifier', async () => {
		const first = await beginSignIn(provider, REDIRECT, context);
		const back = await signInAtProvider(first.url, 'nina');
		const wrongNonce = await completeSignIn(provider, back, {
			...first.transaction,
			nonce: 'n'.repeat(43)
		}).catch((e: unknown) => e);
		expect(signInFailure(wrongNonce)).toBe('unverified');

		const second = await beginSignIn(provider, REDIRECT, context);
		const back2 = await signInAtProvider(second.url, 'nina');
		const other = await beginSignIn(provider, REDIRECT, context);
		await expect(
			completeSignIn(provider, back2, {
				...second.transaction,
				verifier: other.transaction.verifier
			})
		).rejects.toThrow();
	});

	it('passes email_verified through, and fails clearly when the provider is down', async () => {
		const { url, transaction } = await beginSignIn(provider, REDIRECT, context);
		const claims = await completeSignIn(
			provider,
			await signInAtProvider(url, 'unverified'),
			transaction
		);
		expect(claims.emailVerified).toBe(false);
		const down = { ...provider, issuer: 'http://127.0.0.1:9' };
		const error = await beginSignIn(down, REDIRECT, context).catch((e: unknown) => e);
		expect(signInFailure(error)).toBe('unreachable');
	});
});

describe('the single sign-on cookies', () => {
	it('allows plain http only for an issuer on a loopback host', () => {
		expect(allowsInsecure('http://127.0.0.1:4000')).toBe(true);
		expect(allowsInsecure('http://localhost/realms/x')).toBe(true);
		expect(allowsInsecure('http://[::1]:8080')).toBe(true);
		expect(allowsInsecure('http://login.example.edu')).toBe(false);
		expect(allowsInsecure('https://login.example.edu')).toBe(false);
	});

	it('reads a transaction back once written, and not after its ten minutes', () => {
		const t = {
			...context,
			state: 's'.repeat(43),
			nonce: 'n'.repeat(43),
			verifier: 'v'.repeat(43),
			expiresAt: 1_000_000
		};
		expect(decodeTransaction(encodeTransaction(t), 999_999)).toEqual(t);
		expect(decodeTransaction(encodeTransaction(t), 1_000_000)).toBeNull();
		expect(decodeTransaction('not-json', 0)).toBeNull();
	});

	it('signs the identity for the application form: a changed subject or another key fails', () => {
		const identity = {
			institutionId: 3,
			issuer: 'https://login.example.edu',
			subject: 'abc',
			email: 'a@example.edu',
			name: 'A'
		};
		const sealed = sealIdentity(identity, 'secret-1', 0);
		expect(sealedInstitution(sealed)).toBe(3);
		expect(openIdentity(sealed, 'secret-1', 1000)).toMatchObject(identity);
		expect(openIdentity(sealed, 'secret-2', 1000)).toBeNull();
		expect(openIdentity(sealed, 'secret-1', 600_001)).toBeNull();
		const [payload, mac] = sealed.split('.');
		const forged = Buffer.from(
			JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), subject: 'x' })
		).toString('base64url');
		expect(openIdentity(`${forged}.${mac}`, 'secret-1', 1000)).toBeNull();
	});
});
