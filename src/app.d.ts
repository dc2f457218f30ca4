import type { Session } from '$lib/server/db/schema';
import type { SessionUser } from '$lib/server/auth/session';

declare global {
	namespace App {
		interface Error {
			message: string;
			/** Quote this id when reporting an unexpected error; it is in the server log. */
			errorId?: string;
		}
		interface Locals {
			user: SessionUser | null;
			session: Session | null;
		}
	}
}

export {};
