import type { QuestionType, StudyDesign, StudyState } from '$lib/constants';

/**
 * What a physician sees of one assignment, in any study design: opaque ids, letters and texts only (no model, response
 * or candidate database ids, no reference flag). The ranking screen renders it, whether it came
 * from the page load or from a submission that leased the next question.
 */
export interface AssignmentView {
	assignment: {
		publicId: string;
		state: 'leased' | 'submitted' | 'expired' | 'released';
		leaseExpiresAt: Date | null;
		shownAt: Date;
	};
	study: {
		id: number;
		name: string;
		state: StudyState;
		design: StudyDesign;
		instructions: string;
		allowTies: boolean;
	};
	question: {
		type: QuestionType;
		text: string;
		/** A question set's case description (null for QA items). */
		context: string | null;
		/** Documents a question set's question comes with. */
		documents: { id: string; title?: string; text?: string }[];
		options: string[];
		/** Inverse items: the wrong answer or reasoning the models were asked to critique. */
		falseAnswer: string | null;
		reasoning: string[];
	};
	/** Where the physician stands in the study: rankings submitted, and questions in all. */
	progress: { ranked: number; questions: number };
	candidates: { id: string; label: string; text: string }[];
}

/** The ranking screen of one assignment: its view, plus what the page adds around it. */
export interface RankingScreen extends AssignmentView {
	/** The lease ran out (or the assignment was expired): nothing can be submitted. */
	expired: boolean;
	instructionsHtml: string;
	/** A fresh key per showing: a resubmitted form (double click, retry) is stored once. */
	idempotencyKey: string;
}
