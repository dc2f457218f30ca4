import { scoreList, type ListItem } from './list';
import { scoreMultipleChoice, type MultipleChoiceItem } from './multiple-choice';
import type { NgramFn } from './ngram-types';
import {
	scoreMultiHopInverse,
	scoreOpen,
	type MultiHopInverseItem,
	type OpenItem
} from './open-ended';
import type { SemanticScorer } from './semantic';
import { cleanResponse } from './text';
import { scoreTrueFalse, type TrueFalseItem } from './true-false';
import { paragraphId, fieldText, type Mode, type QaRecord, type TaskType } from './types';

/** Type-tagged outcome of one item. */
export type ItemScore =
	| ({ type: 'true_false' } & TrueFalseItem)
	| ({ type: 'multiple_choice' } & MultipleChoiceItem)
	| ({ type: 'list' } & ListItem)
	| ({ type: 'short_answer' | 'short_inverse' | 'multi_hop' } & OpenItem)
	| ({ type: 'multi_hop_inverse' } & MultiHopInverseItem);

/** One scored item with its identity; `response` is the think-stripped text that was scored. */
export interface ScoredItem {
	id: string;
	paragraphId: string;
	question: string;
	response: string;
	score: ItemScore;
}

/** What an item scorer needs besides the item. */
export interface ItemContext {
	mode: Mode;
	semantic: SemanticScorer;
	ngram: NgramFn;
}

/** Scores one QA record against one raw model response. */
export async function scoreItem(
	id: string,
	type: TaskType,
	record: QaRecord,
	rawResponse: unknown,
	ctx: ItemContext
): Promise<ScoredItem> {
	const response = cleanResponse(rawResponse);
	const base = {
		id,
		paragraphId: paragraphId(record),
		question: fieldText(record.question),
		response
	};
	switch (type) {
		case 'true_false':
			return { ...base, score: { type, ...scoreTrueFalse(record, response, ctx.mode) } };
		case 'multiple_choice':
			return { ...base, score: { type, ...scoreMultipleChoice(record, response, ctx.mode) } };
		case 'list':
			return { ...base, score: { type, ...scoreList(record, response, ctx.mode) } };
		case 'multi_hop_inverse': {
			const s = await scoreMultiHopInverse(record, response, ctx.mode, ctx.semantic, ctx.ngram);
			return { ...base, score: { type, ...s } };
		}
		default: {
			const s = await scoreOpen(type, record, response, ctx.mode, ctx.semantic, ctx.ngram);
			return { ...base, score: { type, ...s } };
		}
	}
}
