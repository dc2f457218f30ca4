import {
	ITEM_OUTCOME_LABELS,
	ITEM_STATUS_LABELS,
	type ItemOutcome,
	type ItemStatus
} from '$lib/constants';

const STATE_TONES: Record<ItemStatus, string> = {
	awaiting_primary: 'plain',
	awaiting_secondary: 'soft',
	awaiting_adjudication: 'warn',
	done: 'accent',
	withdrawn: 'muted-tone'
};

const OUTCOME_TONES: Record<ItemOutcome, string> = {
	verified: 'ok',
	incorrect: 'danger',
	cannot_tell: 'warn',
	held: 'held',
	pending: 'plain',
	withdrawn: 'muted-tone'
};

/** StackedBar parts of the workflow-state counts, each linking to the filtered item table. */
export function stateParts(byState: { status: ItemStatus; n: number }[]) {
	return byState.map((s) => ({
		label: ITEM_STATUS_LABELS[s.status],
		value: s.n,
		tone: STATE_TONES[s.status],
		href: `/admin/items?status=${s.status}`
	}));
}

/** StackedBar parts of the outcome counts, each linking to the filtered item table. */
export function outcomeParts(byOutcome: { outcome: ItemOutcome; n: number }[]) {
	return byOutcome.map((o) => ({
		label: ITEM_OUTCOME_LABELS[o.outcome],
		value: o.n,
		tone: OUTCOME_TONES[o.outcome],
		href: `/admin/items?outcome=${o.outcome}`
	}));
}
