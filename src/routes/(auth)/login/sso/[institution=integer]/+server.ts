import { error, redirect } from '@sveltejs/kit';
import { dev } from '$app/environment';
import {
	beginSignIn,
	encodeTransaction,
	SSO_COOKIE_MAX_AGE_S,
	SSO_TX_COOKIE
} from '$lib/server/auth/oidc';
import { safeRedirect } from '$lib/server/auth/redirect';
import { getDb } from '$lib/server/db';
import { ssoConfig } from '$lib/server/domain/institutions';
import type { RequestHandler } from './$types';

// Starts a sign-in at an institution's provider: a GET link (a form posting here could not follow
// the redirect to another site under the form-action 'self' policy). `invitation` carries the token
// of an invitation being accepted with the institution's sign-in.
export const GET: RequestHandler = async ({ params, url, cookies }) => {
	const config = await ssoConfig(getDb(), Number(params.institution));
	if (!config) error(404, 'This institution has no single sign-on.');
	const invitation = url.searchParams.get('invitation');
	let target: URL;
	try {
		const started = await beginSignIn(config, `${url.origin}/login/sso/callback`, {
			institutionId: config.id,
			invitation: invitation && /^[a-z2-9]{32}$/.test(invitation) ? invitation : null,
			redirectTo: safeRedirect(url.searchParams.get('redirectTo'), url.origin)
		});
		cookies.set(SSO_TX_COOKIE, encodeTransaction(started.transaction), {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			secure: !dev && process.env.COOKIE_SECURE !== '0',
			maxAge: SSO_COOKIE_MAX_AGE_S
		});
		target = started.url;
	} catch (e) {
		console.error(`[sso] institution ${config.id}: could not start a sign-in:`, e);
		redirect(303, '/login?sso=unreachable');
	}
	redirect(303, target.href);
};
