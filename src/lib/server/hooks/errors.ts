import type { HandleServerError } from '@sveltejs/kit';
import { randomId } from '../ids';

/** Logs an unexpected error once with an id the user can quote; the page shows only the id. */
export const reportError: HandleServerError = ({ error, event, status, message }) => {
	if (status === 404) return { message };
	const errorId = randomId(8);
	console.error(`[error ${errorId}] ${event.request.method} ${event.url.pathname}:`, error);
	return { message: 'Something went wrong on our side.', errorId };
};
