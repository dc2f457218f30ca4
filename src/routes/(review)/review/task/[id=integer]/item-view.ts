import type { ItemVersionView } from '$lib/components/QaItemView.svelte';
import type { leasedItem } from '$lib/server/domain/review';

type Leased = NonNullable<Awaited<ReturnType<typeof leasedItem>>>;

/**
 * What the review screen shows of a leased item, and nothing more: the lease the form needs,
 * the item's typed fields (not the stored record, its hash or provenance) and its passage.
 */
export function itemOnScreen(shown: Leased) {
	const { lease, item, version: v, passage: p } = shown;
	const version: ItemVersionView = {
		type: v.type,
		question: v.question,
		answer: v.answer,
		answerList: v.answerList,
		options: v.options,
		correctAnswer: v.correctAnswer,
		reasoning: v.reasoning,
		falseAnswer: v.falseAnswer,
		incorrectExplanation: v.incorrectExplanation,
		incorrectStep: v.incorrectStep,
		incorrectStepExplanation: v.incorrectStepExplanation
	};
	return {
		lease: {
			taskId: lease.taskId,
			round: lease.round,
			leaseToken: lease.leaseToken,
			leasedAt: lease.leasedAt,
			leaseExpiresAt: lease.leaseExpiresAt
		},
		item: { id: item.id, paragraphId: item.paragraphId },
		version,
		passage: p && { paragraphId: p.paragraphId, isbn: p.isbn, page: p.page, text: p.text }
	};
}
