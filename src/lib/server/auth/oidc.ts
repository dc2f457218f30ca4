// Single sign-on with an institution's OpenID Connect provider (openid-client v6): the
// authorisation code flow with PKCE (S256), state and nonce, and a required ID token. The
// transaction (institution, state, nonce, code verifier, an invitation being accepted, where to go
// afterwards) lives in a short-lived httpOnly cookie the callback reads once and clears. An identity
// that should apply travels to /apply in a second cookie, signed, so the application form can never
// choose its own issuer or subject.
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import { z } from 'zod';

/** The transaction cookie and the signed identity cookie. */
export const SSO_TX_COOKIE = 'sso_tx';
export const SSO_IDENTITY_COOKIE = 'sso_identity';
/** Both cookies live 10 minutes: long enough to sign in at the provider or fill in a form. */
export const SSO_COOKIE_MAX_AGE_S = 600;
/** Requests to the provider give up after this many seconds (a provider that is down). */
const PROVIDER_TIMEOUT_S = 10;

/** What the portal needs to talk to an institution's provider. */
export interface ProviderSettings {
	issuer: string;
	clientId: string;
	clientSecret: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is allowed only for an issuer on this machine (a test or a local provider). */
export function allowsInsecure(issuer: string): boolean {
	const url = new URL(issuer);
	return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/** Discovers the provider's metadata; client_secret_basic authentication at the token endpoint. */
async function configure(settings: ProviderSettings): Promise<client.Configuration> {
	const insecure = allowsInsecure(settings.issuer);
	return client.discovery(
		new URL(settings.issuer),
		settings.clientId,
		{ client_secret: settings.clientSecret },
		client.ClientSecretBasic(settings.clientSecret),
		{ timeout: PROVIDER_TIMEOUT_S, execute: insecure ? [client.allowInsecureRequests] : [] }
	);
}

const transactionSchema = z.object({
	institutionId: z.number().int().positive(),
	state: z.string().min(20),
	nonce: z.string().min(20),
	verifier: z.string().min(43),
	invitation: z.string().max(200).nullable(),
	redirectTo: z.string().max(2000),
	expiresAt: z.number()
});
export type SsoTransaction = z.infer<typeof transactionSchema>;

/**
 * Starts a sign-in: the provider's authorisation URL (code flow, S256 challenge, state, nonce)
 * and the transaction to keep in the cookie until the callback.
 */
export async function beginSignIn(
	settings: ProviderSettings,
	redirectUri: string,
	context: { institutionId: number; invitation: string | null; redirectTo: string },
	now = Date.now()
): Promise<{ url: URL; transaction: SsoTransaction }> {
	const config = await configure(settings);
	const verifier = client.randomPKCECodeVerifier();
	const state = client.randomState();
	const nonce = client.randomNonce();
	const url = client.buildAuthorizationUrl(config, {
		redirect_uri: redirectUri,
		response_type: 'code',
		scope: 'openid email profile',
		code_challenge: await client.calculatePKCECodeChallenge(verifier),
		code_challenge_method: 'S256',
		state,
		nonce
	});
	return {
		url,
		transaction: {
			...context,
			state,
			nonce,
			verifier,
			expiresAt: now + SSO_COOKIE_MAX_AGE_S * 1000
		}
	};
}

/** The transaction cookie's value (base64url JSON; it holds nothing the browser may not see). */
export function encodeTransaction(t: SsoTransaction): string {
	return Buffer.from(JSON.stringify(t)).toString('base64url');
}

/** The transaction from its cookie, or null when it is missing, malformed or expired. */
export function decodeTransaction(
	value: string | undefined,
	now = Date.now()
): SsoTransaction | null {
	if (!value) return null;
	try {
		const parsed = transactionSchema.safeParse(
			JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
		);
		return parsed.success && parsed.data.expiresAt > now ? parsed.data : null;
	} catch {
		return null;
	}
}

/** What a verified ID token says about the person. */
export interface VerifiedClaims {
	issuer: string;
	subject: string;
	email?: string;
	emailVerified?: boolean;
	name?: string;
}

/**
 * Completes a sign-in at the callback: exchanges the code (with the PKCE verifier) and checks the
 * state, the ID token (issuer, audience, signature, expiry) and its nonce, then reads the email
 * and name from the ID token or the UserInfo endpoint. Throws when any check
 * fails or the provider cannot be reached; the caller shows a message and writes nothing.
 */
export async function completeSignIn(
	settings: ProviderSettings,
	callbackUrl: URL,
	transaction: SsoTransaction
): Promise<VerifiedClaims> {
	const config = await configure(settings);
	const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
		pkceCodeVerifier: transaction.verifier,
		expectedState: transaction.state,
		expectedNonce: transaction.nonce,
		idTokenExpected: true
	});
	const idToken = tokens.claims();
	if (!idToken) throw new Error('The provider returned no ID token.');
	// Many providers (oidc-provider by default) put the profile and email claims in the UserInfo
	// response rather than the ID token; it must be about the same subject.
	const info: Record<string, unknown> =
		(idToken.email === undefined || idToken.name === undefined) &&
		config.serverMetadata().userinfo_endpoint
			? await client.fetchUserInfo(config, tokens.access_token, idToken.sub)
			: {};
	const claim = (name: string) => idToken[name] ?? info[name];
	const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
	const verified = claim('email_verified');
	return {
		issuer: idToken.iss,
		subject: idToken.sub,
		email: text(claim('email'))?.toLowerCase(),
		emailVerified: typeof verified === 'boolean' ? verified : undefined,
		name: text(claim('name'))
	};
}

/** Why a sign-in failed: the provider refused it, a check failed, or the provider was not there. */
export type SignInFailure = 'cancelled' | 'unverified' | 'unreachable';

/** Classifies an error of `completeSignIn` (its details belong in the server log only). */
export function signInFailure(e: unknown): SignInFailure {
	if (e instanceof client.AuthorizationResponseError) return 'cancelled';
	if (e instanceof client.ClientError) {
		const code = (e as { code?: string }).code ?? '';
		if (/JWT|CLAIM|RESPONSE|CHECK/i.test(code) || /state|nonce|iss|aud/i.test(e.message))
			return 'unverified';
	}
	return 'unreachable';
}

const identitySchema = z.object({
	institutionId: z.number().int().positive(),
	issuer: z.string(),
	subject: z.string(),
	email: z.string(),
	name: z.string(),
	expiresAt: z.number()
});
export type SignedIdentity = z.infer<typeof identitySchema>;

// The identity cookie is signed with a key derived from the institution's client secret: a secret
// the server alone holds, shared by every instance through the database, so no key of its own is
// needed; changing the secret ends the identities in flight.
function mac(payload: string, clientSecret: string): Buffer {
	const key = createHmac('sha256', 'cliniq sso identity').update(clientSecret).digest();
	return createHmac('sha256', key).update(payload).digest();
}

/** Signs an identity for the /apply cookie (valid SSO_COOKIE_MAX_AGE_S). */
export function sealIdentity(
	identity: Omit<SignedIdentity, 'expiresAt'>,
	clientSecret: string,
	now = Date.now()
): string {
	const payload = Buffer.from(
		JSON.stringify({ ...identity, expiresAt: now + SSO_COOKIE_MAX_AGE_S * 1000 })
	).toString('base64url');
	return `${payload}.${mac(payload, clientSecret).toString('base64url')}`;
}

/** The institution a sealed identity claims to be for (unverified: only to find its secret). */
export function sealedInstitution(value: string | undefined): number | null {
	try {
		const [payload] = (value ?? '').split('.');
		const id = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).institutionId;
		return Number.isInteger(id) && id > 0 ? id : null;
	} catch {
		return null;
	}
}

/** The identity of a sealed cookie when its signature holds and it has not expired, else null. */
export function openIdentity(
	value: string | undefined,
	clientSecret: string,
	now = Date.now()
): SignedIdentity | null {
	const [payload, signature, extra] = (value ?? '').split('.');
	if (!payload || !signature || extra !== undefined) return null;
	const given = Buffer.from(signature, 'base64url');
	const expected = mac(payload, clientSecret);
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
	try {
		const parsed = identitySchema.safeParse(
			JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
		);
		return parsed.success && parsed.data.expiresAt > now ? parsed.data : null;
	} catch {
		return null;
	}
}
