import type { ItemScore, ScoredItem } from './item';
import type { OpenItem } from './open-ended';
import { irMetrics, labelMetrics } from './list-metrics';
import { TASK_TYPES, type Mode, type TaskType } from './types';

type Metrics = Record<string, number>;
type Of<T extends ItemScore['type']> = Extract<ItemScore, { type: T }>;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const rate = (n: number, d: number) => (d > 0 ? n / d : 0);

/** Official results are a map keyed by paragraph_id (a later item replaces an earlier one). */
function keyed(items: ScoredItem[], mode: Mode): ScoredItem[] {
	if (mode === 'corrected') return items;
	const m = new Map<string, ScoredItem>();
	for (const it of items) {
		m.delete(it.paragraphId);
		m.set(it.paragraphId, it);
	}
	return [...m.values()];
}

const scoresOf = <T extends ItemScore['type']>(items: ScoredItem[]) =>
	items.map((i) => i.score as Of<T>);

/** Per-type metrics under the official output keys (docs/scoring-behaviour.md §4–§8, §10). */
export function typeMetrics(type: TaskType, items: ScoredItem[], mode: Mode): Metrics {
	switch (type) {
		case 'true_false': {
			const s = scoresOf<'true_false'>(items);
			return {
				accuracy: rate(s.filter((x) => x.correct).length, s.length),
				true_false_invalid_count: s.filter((x) => x.invalid).length
			};
		}
		case 'multiple_choice':
			return mcMetrics(scoresOf<'multiple_choice'>(items));
		case 'list':
			return listMetrics(items, mode);
		case 'multi_hop_inverse': {
			const s = scoresOf<'multi_hop_inverse'>(items);
			const k = scoresOf<'multi_hop_inverse'>(keyed(items, mode));
			return {
				semantic_match_score: mean(s.map((x) => x.semantic)),
				step_identification_rate: mean(k.map((x) => (x.stepCorrect ? 1 : 0))),
				...ngramAverages(k)
			};
		}
		default: {
			const s = items.map((i) => i.score as OpenItem);
			const k = keyed(items, mode).map((i) => i.score as OpenItem);
			return { semantic_match_score: mean(s.map((x) => x.semantic)), ...ngramAverages(k) };
		}
	}
}

function ngramAverages(s: { bleu: number; meteor: number; rouge: number }[]): Metrics {
	return {
		avg_bleu: mean(s.map((x) => x.bleu)),
		avg_meteor: mean(s.map((x) => x.meteor)),
		avg_rouge: mean(s.map((x) => x.rouge))
	};
}

function mcMetrics(s: Of<'multiple_choice'>[]): Metrics {
	const n = s.length;
	const valid = s.filter((x) => !x.invalid);
	const count = (t: string) => valid.filter((x) => x.matchType === t).length;
	return {
		multiple_choice_average: rate(s.filter((x) => x.correct).length, n),
		multiple_choice_full_match_average: rate(count('full'), n),
		multiple_choice_combined_match_average: rate(count('letter') + count('mixed'), n),
		multiple_choice_invalid_count: n - valid.length,
		multiple_choice_full_match: rate(count('full'), valid.length),
		multiple_choice_letter_match: rate(count('letter'), valid.length),
		multiple_choice_mixed_match: rate(count('mixed'), valid.length)
	};
}

function listMetrics(items: ScoredItem[], mode: Mode): Metrics {
	const all = scoresOf<'list'>(items).filter((x) => !x.dropped);
	const res = scoresOf<'list'>(
		keyed(
			items.filter((i) => !(i.score as Of<'list'>).dropped),
			mode
		)
	);
	const E = res.map((r) => new Set(r.expected));
	const P = res.map((r) => new Set(r.predSet));
	const mask = (keep: (r: Of<'list'>) => boolean) =>
		res.map((r, i) => (keep(r) ? P[i] : new Set<string>()));
	const overall = labelMetrics(E, P);
	const full = labelMetrics(
		E,
		mask((r) => r.matchType === 'full')
	);
	const comb = labelMetrics(
		E,
		mask((r) => r.matchType === 'letter' || r.matchType === 'mixed')
	);
	const ok = all.filter((x) => !x.malformed);
	const count = (t: string) => ok.filter((x) => x.matchType === t).length;
	// evaluate.py ranks r["predicted"], or [raw response] when nothing was predicted.
	const ranked = (rs: Of<'list'>[]) => rs.map((r) => (r.predicted.length ? r.predicted : ['']));
	const ir = (keep: (r: Of<'list'>) => boolean) => {
		const sel = res.filter(keep);
		return irMetrics(
			ranked(sel),
			sel.map((r) => r.expected)
		);
	};
	const irAll = ir(() => true);
	const irFull = ir((r) => r.matchType === 'full');
	const irComb = ir((r) => r.matchType === 'letter' || r.matchType === 'mixed');
	const out: Metrics = {
		list_overall_macro_avg_precision: overall.macro.precision,
		list_overall_macro_avg_recall: overall.macro.recall,
		list_overall_macro_avg_f1_score: overall.macro.f1,
		list_overall_micro_precision: overall.micro.precision,
		list_overall_micro_recall: overall.micro.recall,
		list_overall_micro_f1_score: overall.micro.f1,
		list_full_match_macro_precision: full.macro.precision,
		list_full_match_macro_recall: full.macro.recall,
		list_full_match_macro_f1_score: full.macro.f1,
		list_full_match_micro_precision: full.micro.precision,
		list_full_match_micro_recall: full.micro.recall,
		list_full_match_micro_f1_score: full.micro.f1,
		list_combined_match_macro_precision: comb.macro.precision,
		list_combined_match_macro_recall: comb.macro.recall,
		list_combined_match_macro_f1_score: comb.macro.f1,
		list_combined_match_micro_precision: comb.micro.precision,
		list_combined_match_micro_recall: comb.micro.recall,
		list_combined_match_micro_f1_score: comb.micro.f1,
		list_full_match: rate(count('full'), ok.length),
		list_letter_match: rate(count('letter'), ok.length),
		list_mixed_match: rate(count('mixed'), ok.length),
		list_invalid_count: all.length - ok.length,
		list_map: irAll.map,
		list_mrr: irAll.mrr,
		list_p_at_5: irAll.pAt5,
		list_map_full: irFull.map,
		list_mrr_full: irFull.mrr,
		list_p_at_5_full: irFull.pAt5,
		list_map_combined: irComb.map,
		list_mrr_combined: irComb.mrr,
		list_p_at_5_combined: irComb.pAt5
	};
	if (mode === 'corrected') {
		out.list_per_question_macro_precision = mean(all.map((x) => x.precision));
		out.list_per_question_macro_recall = mean(all.map((x) => x.recall));
		out.list_per_question_macro_f1_score = mean(all.map((x) => x.f1));
	}
	return out;
}

/** The list number that enters the overall mean: label-macro F1 (official) or per-question F1 (corrected). */
export function listHeadline(m: Metrics, mode: Mode): number {
	return mode === 'official'
		? m.list_overall_macro_avg_f1_score
		: m.list_per_question_macro_f1_score;
}

/** The seven headline numbers of the overall mean, per type (0 for a missing type). */
export function headlines(
	perType: Record<TaskType, Metrics>,
	mode: Mode
): Record<TaskType, number> {
	return {
		true_false: perType.true_false.accuracy ?? 0,
		multiple_choice: perType.multiple_choice.multiple_choice_average ?? 0,
		list: listHeadline(perType.list, mode) ?? 0,
		short_answer: perType.short_answer.semantic_match_score ?? 0,
		multi_hop: perType.multi_hop.semantic_match_score ?? 0,
		short_inverse: perType.short_inverse.semantic_match_score ?? 0,
		multi_hop_inverse: perType.multi_hop_inverse.semantic_match_score ?? 0
	};
}

/**
 * Overall effectiveness: unweighted mean of the seven headline numbers (docs/scoring-behaviour.md
 * §10).
 */
export function overallEffectiveness(h: Record<TaskType, number>): number {
	return mean(TASK_TYPES.map((t) => h[t]));
}

/** Linear-interpolated percentiles (numpy default) for open_ended_stats. */
export function summaryStats(xs: number[]): {
	min: number;
	p25: number;
	median: number;
	p75: number;
	max: number;
} {
	const s = [...xs].sort((a, b) => a - b);
	const q = (p: number) => {
		if (s.length === 0) return 0;
		const pos = (s.length - 1) * p;
		const lo = Math.floor(pos);
		const hi = Math.ceil(pos);
		return s[lo] + (s[hi] - s[lo]) * (pos - lo);
	};
	return { min: q(0), p25: q(0.25), median: q(0.5), p75: q(0.75), max: q(1) };
}
