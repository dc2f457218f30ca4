import type { Handle } from '@sveltejs/kit';

/** Security headers on every response; pages are never cached by shared caches. */
export const securityHandle: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-content-type-options', 'nosniff');
	response.headers.set('referrer-policy', 'same-origin');
	response.headers.set('x-frame-options', 'DENY');
	if (event.locals.user) response.headers.set('cache-control', 'private, no-store');
	return response;
};
