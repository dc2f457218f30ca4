import type { Session } from '$lib/server/db/schema';
import type { SessionUser } from '$lib/server/auth/session';
import type { RankingScreen } from '$lib/ranking/view';
import type { ScoringScreen } from './routes/(rank)/rank/rubric/[assignment=publicid]/+page.server';
import type { PreferenceScreen } from './routes/(rank)/rank/pairwise/[assignment=publicid]/+page.server';

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
		interface PageState {
			/** The ranking screen a submission returned with the next question (shallow routing). */
			rankingScreen?: RankingScreen;
			/** The rubric scoring screen a submission returned with the next question. */
			rubricScreen?: ScoringScreen;
			/** The pairwise preference screen a submission returned with the next pair. */
			pairwiseScreen?: PreferenceScreen;
		}
	}
}

export {};
