import { redirect, type Handle } from '@sveltejs/kit';
import { hasRole } from '../auth/guards';
import { getDb } from '../db';
import { consentGate } from '../domain/consent';

/** The raters' pages: the reviewers' queue and the physicians' studies. */
const RATER_PAGES = /^\/(review|rank)(\/|$)/;
/** Withdrawing from a study is never held back by a text the rater has not accepted. */
const ALWAYS_OPEN = /^\/rank\/withdraw(\/|$)/;

/** Where a rater goes to accept what is pending, coming back to `url` afterwards. */
export function consentUrl(studyId: number | null, url: URL): string {
	const query = new URLSearchParams({ redirectTo: url.pathname + url.search });
	if (studyId !== null) query.set('study', String(studyId));
	return `/consent?${query}`;
}

/**
 * Sends a reviewer or physician who has not accepted the newest consent text (the portal's, or
 * that of a study they hold work in) from any rater page — page, data request or form action — to
 * /consent first (303). A handle rather than a line in every load: every route under /review and
 * /rank, including ones added later, is covered; the claims refuse too (`claimRefusal`). One
 * indexed query per rater request; nothing is asked when no text was ever published.
 */
export const consentHandle: Handle = async ({ event, resolve }) => {
	const user = event.locals.user;
	const path = event.url.pathname;
	if (
		user &&
		RATER_PAGES.test(path) &&
		!ALWAYS_OPEN.test(path) &&
		(hasRole(user, 'reviewer') || hasRole(user, 'physician'))
	) {
		const pending = await consentGate(getDb(), user.id);
		if (pending) redirect(303, consentUrl(pending.studyId, event.url));
	}
	return resolve(event);
};
