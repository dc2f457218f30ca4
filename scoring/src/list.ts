import { listGold } from './list-gold';
import {
	ListItemDropped,
	mixedMapping,
	parseListOfficial,
	type ListMatchType
} from './list-official';
import { parseListCorrected } from './list-corrected';
import type { Mode, QaRecord } from './types';

/** Per-item list outcome (docs/scoring-behaviour.md §6.3). */
export interface ListItem {
	/** Normalised gold answers. */
	expected: string[];
	/** Normalised predicted values in order of appearance (official fast path: first appearance). */
	predicted: string[];
	/** The set used by the per-type label metrics. */
	predSet: string[];
	precision: number;
	recall: number;
	f1: number;
	matchType: ListMatchType;
	malformed: boolean;
	/** Official only: evaluate.py raised on this item (28 options) and left it out of every list metric. */
	dropped: boolean;
}

/** Multiset overlap precision/recall/F1 (evaluate.py compute_overlap_f1). */
export function overlapPrf(expected: string[], predicted: string[]): [number, number, number] {
	const e = counts(expected);
	const p = counts(predicted);
	let tp = 0;
	let fp = 0;
	let fn = 0;
	for (const [k, c] of p) {
		const ec = e.get(k) ?? 0;
		tp += Math.min(c, ec);
		fp += Math.max(0, c - ec);
	}
	for (const [k, c] of e) fn += Math.max(0, c - (p.get(k) ?? 0));
	const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
	const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
	const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
	return [precision, recall, f1];
}

function counts(xs: string[]): Map<string, number> {
	const m = new Map<string, number>();
	for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
	return m;
}

/** Scores one list response (already think-stripped) in the given mode. */
export function scoreList(record: QaRecord, response: string, mode: Mode): ListItem {
	const gold = listGold(record, mode);
	const expected = gold.expected;
	if (mode === 'corrected') {
		const parsed = parseListCorrected(gold, response);
		// Unknown segments are ordinary false positives: one invented item no longer zeroes the rest.
		const [precision, recall, f1] = overlapPrf(
			[...new Set(expected)],
			[...parsed.predicted, ...parsed.unmatched]
		);
		return {
			expected,
			predicted: parsed.predicted,
			predSet: [...new Set([...parsed.predicted, ...parsed.unmatched])].sort(),
			precision,
			recall,
			f1,
			matchType: parsed.matchType,
			malformed: parsed.malformed,
			dropped: false
		};
	}
	let parsed;
	try {
		parsed = parseListOfficial(gold, response);
	} catch (e) {
		if (!(e instanceof ListItemDropped)) throw e;
		return {
			expected,
			predicted: [],
			predSet: [],
			precision: 0,
			recall: 0,
			f1: 0,
			matchType: 'none',
			malformed: false,
			dropped: true
		};
	}
	if (parsed.malformed) {
		const predSet = [...new Set(parsed.unmatched)].sort();
		return {
			expected,
			predicted: parsed.predicted,
			predSet,
			precision: 0,
			recall: 0,
			f1: 0,
			matchType: parsed.matchType,
			malformed: true,
			dropped: false
		};
	}
	const values =
		parsed.matchType === 'mixed' ? mixedMapping(gold, parsed.predicted) : parsed.predicted;
	const [precision, recall, f1] = overlapPrf(expected, values);
	return {
		expected,
		predicted: parsed.predicted,
		predSet: [...new Set(values)].sort(),
		precision,
		recall,
		f1,
		matchType: parsed.matchType,
		malformed: false,
		dropped: false
	};
}
