import type { QaType } from '../constants';

/**
 * The fields of a QA pair's version that the review screen shows (QaItemView), for a live item and
 * a hidden gold check alike: the same keys whatever the type, absent ones null.
 */
export interface ShownVersion {
	type: QaType;
	question: string;
	answer: string | null;
	answerList: string[] | null;
	options: string[] | null;
	correctAnswer: string | null;
	reasoning: string[] | null;
	falseAnswer: string | null;
	incorrectExplanation: string | null;
	incorrectStep: number | null;
	incorrectStepExplanation: string | null;
}
