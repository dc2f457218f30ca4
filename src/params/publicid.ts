import type { ParamMatcher } from '@sveltejs/kit';

/** Opaque ids from `randomId()` (24 characters of its alphabet). */
export const match: ParamMatcher = (param) => /^[a-z2-9]{24}$/.test(param);
