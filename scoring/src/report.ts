import { headlines, overallEffectiveness, summaryStats } from './aggregate';
import type { ScoredItem } from './item';
import { OPEN_TYPES, type Mode, type TaskType } from './types';

/** Identifies how a result was produced; stored with every result. */
export interface RunMeta {
	mode: Mode;
	embedder: string;
	scorerVersion: string;
	/** Paragraph-layer baseline b actually used. */
	baseline: number;
	baselineSeed: number;
	/** Number of reference texts in the IDF corpus. */
	idfCorpusSize: number;
	warnings: string[];
}

/** One row like Table 2 of the ClinIQLink paper (fractions in [0, 1]). */
export interface LeaderboardRow {
	overall: number;
	mcAcc: number;
	tfAcc: number;
	listF1: number;
	short: number;
	shortInverse: number;
	multiHop: number;
	multiHopInverse: number;
	bleu: number;
	rouge: number;
	meteor: number;
}

/** Short names of the open types in the official overall file. */
const OPEN_KEY: Record<(typeof OPEN_TYPES)[number], string> = {
	short_answer: 'short',
	short_inverse: 'short_inverse',
	multi_hop: 'multi_hop',
	multi_hop_inverse: 'multi_hop_inverse'
};

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * The overall summary with the official key order (docs/scoring-behaviour.md §10) plus the
 * leaderboard row.
 */
export function buildOverall(
	perType: Record<TaskType, Record<string, number>>,
	items: ScoredItem[],
	mode: Mode
): { overall: Record<string, unknown>; leaderboard: LeaderboardRow } {
	const h = headlines(perType, mode);
	const mc = perType.multiple_choice;
	const list = perType.list;
	const tf = perType.true_false;
	const perOpen: Record<string, { avg_bleu: number; avg_meteor: number; avg_rouge: number }> = {};
	for (const t of OPEN_TYPES) {
		const m = perType[t];
		perOpen[OPEN_KEY[t]] = {
			avg_bleu: m.avg_bleu ?? 0,
			avg_meteor: m.avg_meteor ?? 0,
			avg_rouge: m.avg_rouge ?? 0
		};
	}
	const opens = Object.values(perOpen);
	const ngramOverall = {
		avg_bleu: mean(opens.map((o) => o.avg_bleu)),
		avg_meteor: mean(opens.map((o) => o.avg_meteor)),
		avg_rouge: mean(opens.map((o) => o.avg_rouge))
	};
	const overallValue = overallEffectiveness(h);
	const inv = (v: number | undefined) => v ?? 0;
	const overall: Record<string, unknown> = {
		overall_effectiveness: overallValue,
		true_false_accuracy: h.true_false,
		// Official quirk: evaluate.py reads keys that are never set, so these two are always 0.0.
		multiple_choice_accuracy: mode === 'official' ? 0 : h.multiple_choice,
		list_macro_f1_score: mode === 'official' ? 0 : h.list,
		total_invalid_close_ended:
			inv(tf.true_false_invalid_count) +
			inv(mc.multiple_choice_invalid_count) +
			inv(list.list_invalid_count),
		true_false_invalid_count: inv(tf.true_false_invalid_count),
		multiple_choice_invalid_count: inv(mc.multiple_choice_invalid_count),
		list_invalid_count: inv(list.list_invalid_count)
	};
	for (const t of OPEN_TYPES) overall[`${OPEN_KEY[t]}_semantic_match_score`] = h[t];
	overall.multiple_choice_match_metrics = {
		full_match: inv(mc.multiple_choice_full_match),
		letter_match: inv(mc.multiple_choice_letter_match),
		mixed_match: inv(mc.multiple_choice_mixed_match)
	};
	overall.list_match_metrics = {
		full_match: inv(list.list_full_match),
		letter_match: inv(list.list_letter_match),
		mixed_match: inv(list.list_mixed_match)
	};
	overall.multi_hop_inverse_step_identification_rate = inv(
		perType.multi_hop_inverse.step_identification_rate
	);
	for (const [k, v] of Object.entries(mc))
		if (k !== 'multiple_choice_invalid_count') overall[k] = v;
	for (const [k, v] of Object.entries(list))
		if (/_(precision|recall|f1_score)$/.test(k)) overall[k] = v;
	overall.list_full_match = inv(list.list_full_match);
	overall.list_letter_match = inv(list.list_letter_match);
	overall.list_mixed_match = inv(list.list_mixed_match);
	overall.open_ended_metrics_per_type = perOpen;
	overall.open_ended_metrics_overall = ngramOverall;
	const stats: Record<string, unknown> = {};
	for (const t of OPEN_TYPES) {
		const xs = items
			.filter((i) => i.score.type === t)
			.map((i) => (i.score as { semantic: number }).semantic);
		stats[OPEN_KEY[t]] = summaryStats(xs);
	}
	overall.open_ended_stats = stats;
	const leaderboard: LeaderboardRow = {
		overall: overallValue,
		mcAcc: h.multiple_choice,
		tfAcc: h.true_false,
		listF1: h.list,
		short: h.short_answer,
		shortInverse: h.short_inverse,
		multiHop: h.multi_hop,
		multiHopInverse: h.multi_hop_inverse,
		bleu: ngramOverall.avg_bleu,
		rouge: ngramOverall.avg_rouge,
		meteor: ngramOverall.avg_meteor
	};
	return { overall, leaderboard };
}

/** Leaderboard row as a fixed-width text table (percentages, one decimal), for the CLI. */
export function formatLeaderboard(row: LeaderboardRow): string {
	const cols: [string, number][] = [
		['Overall', row.overall],
		['MC Acc', row.mcAcc],
		['TF Acc', row.tfAcc],
		['List F1', row.listF1],
		['Short', row.short],
		['S-Inv', row.shortInverse],
		['MHop', row.multiHop],
		['MH-Inv', row.multiHopInverse],
		['BLEU', row.bleu],
		['ROUGE', row.rouge],
		['METEOR', row.meteor]
	];
	const head = cols.map(([k]) => k.padStart(8)).join(' ');
	const vals = cols.map(([, v]) => (v * 100).toFixed(1).padStart(8)).join(' ');
	return `${head}\n${vals}`;
}
