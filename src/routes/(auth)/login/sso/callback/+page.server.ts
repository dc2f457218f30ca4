import { redirect } from '@sveltejs/kit';
import { dev } from '$app/environment';
import {
	completeSignIn,
	decodeTransaction,
	sealIdentity,
	signInFailure,
	SSO_COOKIE_MAX_AGE_S,
	SSO_IDENTITY_COOKIE,
	SSO_TX_COOKIE,
	type VerifiedClaims
} from '$lib/server/auth/oidc';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { resolveSsoSignIn, ssoConfig } from '$lib/server/domain/institutions';
import { setSessionCookie } from '$lib/server/hooks/auth';
import type { PageServerLoad } from './$types';

// The provider sends the browser back here with a code. The transaction cookie is read once and
// cleared whatever happens; a failed check or an unreachable provider writes nothing and sends the
// person to the sign-in page with a message.
export const load: PageServerLoad = async ({ url, cookies }) => {
	const transaction = decodeTransaction(cookies.get(SSO_TX_COOKIE));
	cookies.delete(SSO_TX_COOKIE, { path: '/' });
	if (!transaction) redirect(303, '/login?sso=expired');
	const db = getDb();
	const config = await ssoConfig(db, transaction.institutionId);
	if (!config) redirect(303, '/login?sso=off');
	let claims: VerifiedClaims;
	try {
		claims = await completeSignIn(config, url, transaction);
	} catch (e) {
		console.error(`[sso] institution ${config.id}: sign-in not completed:`, e);
		redirect(303, `/login?sso=${signInFailure(e)}`);
	}
	const outcome = await resolveSsoSignIn(db, config.id, claims, transaction.invitation);
	if (outcome.kind === 'signed_in') {
		const { token, session } = await createSession(db, outcome.userId);
		setSessionCookie(cookies, token, session.expiresAt);
		redirect(303, transaction.redirectTo);
	}
	if (outcome.kind === 'apply') {
		cookies.set(SSO_IDENTITY_COOKIE, sealIdentity(outcome.identity, config.clientSecret), {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			secure: !dev && process.env.COOKIE_SECURE !== '0',
			maxAge: SSO_COOKIE_MAX_AGE_S
		});
		redirect(303, '/apply');
	}
	return outcome.kind === 'pending'
		? {
				title: 'Your application awaits approval',
				message: `You already applied to ${outcome.institution}. An organiser or the institution’s lead will decide; once approved, sign in with ${outcome.institution} again.`
			}
		: { title: 'Sign-in refused', message: outcome.message };
};
