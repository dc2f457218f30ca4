import { error, redirect } from '@sveltejs/kit';
import type { Role } from '../../constants';
import type { SessionUser } from './session';

/** Whether a user holds a role. Organisers may act as adjudicators. */
export function hasRole(user: Pick<SessionUser, 'roles'> | null, role: Role): boolean {
	if (!user) return false;
	if (role === 'adjudicator' && user.roles.includes('organiser')) return true;
	return user.roles.includes(role);
}

/** The signed-in user, or a redirect to the sign-in page that comes back here afterwards. */
export function requireUser(locals: App.Locals, url?: URL): SessionUser {
	if (!locals.user) {
		const back = url ? `?redirectTo=${encodeURIComponent(url.pathname + url.search)}` : '';
		redirect(303, `/login${back}`);
	}
	return locals.user;
}

/** The signed-in user holding `role`; 403 for anyone else. */
export function requireRole(locals: App.Locals, role: Role, url?: URL): SessionUser {
	const user = requireUser(locals, url);
	if (!hasRole(user, role)) error(403, `This page is for users with the ${role} role.`);
	return user;
}

/** Whether a user may manage an institution: organisers every one, a lead only their own. */
export function canManageInstitution(
	user: Pick<SessionUser, 'roles' | 'institutionId'> | null,
	institutionId: number
): boolean {
	if (!user) return false;
	if (user.roles.includes('organiser')) return true;
	return user.roles.includes('institution_lead') && user.institutionId === institutionId;
}

/** The signed-in organiser, or the lead of `institutionId`; 403 for anyone else. */
export function requireInstitutionAccess(
	locals: App.Locals,
	institutionId: number,
	url?: URL
): SessionUser {
	const user = requireUser(locals, url);
	if (!canManageInstitution(user, institutionId))
		error(403, "This page is for organisers and the institution's own lead.");
	return user;
}
