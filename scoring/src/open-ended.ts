import type { NgramFn, NgramScores } from './ngram-types';
import { ZERO_NGRAMS } from './ngram-types';
import type { SemanticResult, SemanticScorer } from './semantic';
import { parseGoldStep, parsePredictedStep, stepDistance, stepPenalty } from './steps';
import { pyLower, pyStrip } from './text';
import { fieldText, type Mode, type OpenType, type QaRecord } from './types';

/**
 * The (expected, prediction) pair the semantic and n-gram metrics compare
 * (docs/scoring-behaviour.md §8).
 */
export interface OpenPair {
	expected: string;
	prediction: string;
	/** The response repeats the question: scores are 0. */
	echo: boolean;
}

const FINAL = /final\s+answer\s*:/i;
const REASONING = /\n?[\s*_#]*reasoning\s*:/i;

/** Corrected mode: the text after "Final Answer:" (up to "Reasoning:"), else the whole response. */
function finalAnswer(lowered: string): string {
	const m = FINAL.exec(lowered);
	if (!m) return lowered;
	let rest = lowered.slice(m.index + m[0].length).replace(/^[\s*_]+/, '');
	const r = REASONING.exec(rest);
	if (r) rest = rest.slice(0, r.index);
	return pyStrip(rest);
}

/** Builds the compared pair for short_answer, short_inverse and multi_hop items. */
export function openPair(
	type: Exclude<OpenType, 'multi_hop_inverse'>,
	record: QaRecord,
	response: string,
	mode: Mode
): OpenPair {
	const expected = fieldText(
		type === 'short_inverse' ? record.incorrect_explanation : record.answer
	);
	let prediction = pyLower(pyStrip(response));
	const echo = prediction === pyLower(fieldText(record.question));
	if (type === 'short_inverse') {
		prediction =
			mode === 'official'
				? prediction.replace(/^incorrect explanation:\s*/i, '')
				: pyStrip(prediction.replace(/^[\s*_#>]*incorrect explanation[\s*_]*:[\s*_]*/i, ''));
	} else if (mode === 'corrected') {
		prediction = finalAnswer(prediction);
	}
	return { expected, prediction, echo };
}

/** Per-item open-ended outcome. */
export interface OpenItem extends NgramScores {
	expected: string;
	predicted: string;
	semantic: number;
	layers: SemanticResult | null;
	echo: boolean;
}

/** Multi-hop-inverse outcome: the semantic score already carries the step penalty. */
export interface MultiHopInverseItem extends OpenItem {
	expectedStep: number | null;
	predictedStep: number | null;
	/** |gold − predicted| when both exist, else null. */
	stepDistance: number | null;
	penalty: number;
	stepCorrect: boolean;
	/** Semantic score before the penalty. */
	baseSemantic: number;
}

/** Runs the n-gram metrics, treating any throw as all-zero (docs/scoring-behaviour.md §9). */
export function safeNgrams(ngram: NgramFn, expected: string, prediction: string): NgramScores {
	try {
		return ngram(expected, prediction);
	} catch {
		return ZERO_NGRAMS;
	}
}

/** Scores short_answer / short_inverse / multi_hop. */
export async function scoreOpen(
	type: Exclude<OpenType, 'multi_hop_inverse'>,
	record: QaRecord,
	response: string,
	mode: Mode,
	sem: SemanticScorer,
	ngram: NgramFn
): Promise<OpenItem> {
	const pair = openPair(type, record, response, mode);
	if (pair.echo) {
		return {
			expected: pair.expected,
			predicted: pair.prediction,
			semantic: 0,
			layers: null,
			echo: true,
			...ZERO_NGRAMS
		};
	}
	const layers = await sem.score(pair.expected, pair.prediction);
	const ng = safeNgrams(ngram, pair.expected, pair.prediction);
	return {
		expected: pair.expected,
		predicted: pair.prediction,
		semantic: layers.score,
		layers,
		echo: false,
		...ng
	};
}

/** Scores multi_hop_inverse: semantic score of the explanations times the step penalty α(d). */
export async function scoreMultiHopInverse(
	record: QaRecord,
	response: string,
	mode: Mode,
	sem: SemanticScorer,
	ngram: NgramFn
): Promise<MultiHopInverseItem> {
	const gold = parseGoldStep(record.incorrect_reasoning_step, mode);
	const pred = parsePredictedStep(response, mode);
	const chain = Array.isArray(record.reasoning) ? record.reasoning.length : 0;
	const distance =
		gold.step !== null && pred.step !== null ? Math.abs(gold.step - pred.step) : null;
	const penalty = stepPenalty(stepDistance(gold.step, pred.step, mode, chain));
	const layers = await sem.score(gold.explanation, pred.explanation);
	const ng = safeNgrams(ngram, gold.explanation, pred.explanation);
	const stepCorrect =
		mode === 'official' ? gold.step === pred.step : gold.step !== null && gold.step === pred.step;
	return {
		expected: gold.explanation,
		predicted: pred.explanation,
		semantic: layers.score * penalty,
		baseSemantic: layers.score,
		layers,
		echo: false,
		expectedStep: gold.step,
		predictedStep: pred.step,
		stepDistance: distance,
		penalty,
		stepCorrect,
		...ng
	};
}
