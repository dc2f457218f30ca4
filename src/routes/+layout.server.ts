import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = ({ locals }) => {
	return {
		user: locals.user
			? { displayName: locals.user.displayName, email: locals.user.email, roles: locals.user.roles }
			: null
	};
};
