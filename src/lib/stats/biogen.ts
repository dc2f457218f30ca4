// The figures of the TREC 2024 BioGen evaluation (its official script, medaesqa_eval.py) on the
// organisers' assessment file: answer accuracy, sentence precision, redundancy and harmfulness,
// citation coverage, support and contradiction rates, document recall and precision, per run —
// with the script's definitions, order of summation and Python rounding — plus bootstrap intervals
// over questions.
import { EVIDENCE_RELEVANCES } from '../constants';
import { checkBootstrapOptions, percentileInterval, seededRandom, tooFewUnits } from './bootstrap';
import type { Interval } from './types';

/** The relevance labels, as the portal's (src/lib/constants.ts). */
export const RELEVANCE_LABELS = EVIDENCE_RELEVANCES;
export const BIOGEN_RELATIONS = ['supporting', 'contradicting', 'neutral', 'not relevant'] as const;
export type Relevance = (typeof RELEVANCE_LABELS)[number];
export type BiogenRelation = (typeof BIOGEN_RELATIONS)[number];

/** One assessed citation of a sentence. */
export interface BiogenCitation {
	pmid: number;
	relation: BiogenRelation;
}
export interface BiogenSentence {
	id: string;
	text: string;
	/** Lower-cased; null when the assessors gave none (the sentence still counts in totals). */
	relevance: Relevance | null;
	/** null when the file gives no citation assessment (not the same as an empty list). */
	citations: BiogenCitation[] | null;
}
/** One run's answer to a question. */
export interface BiogenAnswer {
	run: string;
	accurate: boolean;
	sentences: BiogenSentence[];
}
/** One entry of the assessment file (a question id may have several entries, with different runs). */
export interface BiogenQuestion {
	id: string;
	answers: BiogenAnswer[];
}

/** The assessment file does not have the official layout or labels; the message names where. */
export class BiogenInputError extends Error {}

/** What the official script reports per run: percentages, and the count of accurate answers. */
export interface RunFigures {
	accuracy: number;
	acceptable_answers: number;
	precision: number | null;
	redundancy: number | null;
	harmfulness: number | null;
	citation_coverage: number;
	citation_support_rate: number;
	citation_contradict_rate: number;
	document_recall: number | null;
	document_precision: number;
}
export type FigureKey = keyof RunFigures;
/** The figures that are percentages (all but acceptable_answers): those given intervals. */
export const PERCENT_FIGURES = [
	'accuracy',
	'precision',
	'redundancy',
	'harmfulness',
	'citation_coverage',
	'citation_support_rate',
	'citation_contradict_rate',
	'document_recall',
	'document_precision'
] as const satisfies readonly FigureKey[];
export type PercentFigure = (typeof PERCENT_FIGURES)[number];

/** One (question, run): its raw percentages, unrounded; null where it is left out of an average. */
export interface QuestionRunFigures {
	question: string;
	run: string;
	accurate: boolean;
	sentences: number;
	/** null when the answer has no sentence: the question is left out of these averages. */
	precision: number | null;
	redundancy: number | null;
	harmfulness: number | null;
	/** 0 when the answer has no sentence (the official script divides by zero there). */
	citation_coverage: number;
	citation_support_rate: number;
	citation_contradict_rate: number;
	/** null when no run of the question cites a document judged relevant (empty pool). */
	document_recall: number | null;
	document_precision: number;
}

// ---------------------------------------------------------------------------------------------
// Reading the file

const MAX_SHOWN = 60;
/** A value as an error message shows it: JSON, cut short. */
function shown(value: unknown): string {
	let s: string;
	if (typeof value === 'string')
		s = JSON.stringify(value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN) + '…' : value);
	else if (value === null || typeof value === 'number' || typeof value === 'boolean')
		s = String(value);
	else s = Array.isArray(value) ? 'a list' : `a ${typeof value}`;
	return s;
}
const isRecord = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Record<string, unknown>, key: string) =>
	Object.prototype.hasOwnProperty.call(o, key);
/** A field's value as a message shows it, or "(missing)". */
const field = (o: Record<string, unknown>, key: string) =>
	has(o, key) ? shown(o[key]) : '(missing)';

/** A PMID as the script compares it (Python's int()): a whole number ≥ 0 or a string of digits. */
function readPmid(value: unknown): number | null {
	if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
	if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
	return null;
}

/**
 * Reads the official BioGen assessment layout (a JSON array of {question_id,
 * machine_generated_answers: {run: {is_answer_accurate, answer_sentences: [...]}}}) and checks
 * every label: is_answer_accurate yes/no and the relevance labels in any case (the script lower-cases
 * them), evidence relations exactly as the script writes them. Throws BiogenInputError naming the
 * question, run and sentence. Walks only the known shape, so hostile nesting cannot exhaust it.
 */
export function parseBiogenAssessments(json: unknown): BiogenQuestion[] {
	if (!Array.isArray(json))
		throw new BiogenInputError(`the assessments must be a list of questions; found ${shown(json)}`);
	const questions: BiogenQuestion[] = [];
	// Which entry first gave each (question id, run), to refuse a run given twice for an id.
	const firstEntry = new Map<string, number>();
	json.forEach((entry: unknown, q) => {
		let where = `question ${q + 1}`;
		const fail = (message: string) => new BiogenInputError(`${where}: ${message}`);
		if (!isRecord(entry)) throw fail(`must be an object; found ${shown(entry)}`);
		const rawId = entry.question_id;
		if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isFinite(rawId)))
			throw fail(`question_id must be a string or a number; found ${field(entry, 'question_id')}`);
		const id = String(rawId);
		where = `question ${q + 1} (id ${shown(id)})`;
		const runs = entry.machine_generated_answers;
		if (!isRecord(runs))
			throw fail(
				`machine_generated_answers must be an object of runs; found ${field(entry, 'machine_generated_answers')}`
			);
		const answers: BiogenAnswer[] = [];
		for (const run of Object.keys(runs)) {
			const runWhere = `${where}, run ${shown(run)}`;
			const key = JSON.stringify([id, run]);
			const earlier = firstEntry.get(key);
			if (earlier !== undefined)
				throw new BiogenInputError(
					`${runWhere}: this run already answered question id ${shown(id)} in question ${earlier + 1}`
				);
			firstEntry.set(key, q);
			answers.push(readAnswer(runs[run], run, runWhere));
		}
		questions.push({ id, answers });
	});
	return questions;
}

function readAnswer(value: unknown, run: string, where: string): BiogenAnswer {
	const fail = (message: string) => new BiogenInputError(`${where}: ${message}`);
	if (!isRecord(value)) throw fail(`must be an object; found ${shown(value)}`);
	const accurate = value.is_answer_accurate;
	if (typeof accurate !== 'string' || !['yes', 'no'].includes(accurate.toLowerCase()))
		throw fail(`is_answer_accurate ${field(value, 'is_answer_accurate')} is not yes or no`);
	const list = value.answer_sentences;
	if (!Array.isArray(list))
		throw fail(`answer_sentences must be a list; found ${field(value, 'answer_sentences')}`);
	const sentences = list.map((s: unknown, i) => readSentence(s, `${where}, sentence ${i + 1}`));
	return { run, accurate: accurate.toLowerCase() === 'yes', sentences };
}

function readSentence(value: unknown, where: string): BiogenSentence {
	const fail = (message: string) => new BiogenInputError(`${where}: ${message}`);
	if (!isRecord(value)) throw fail(`must be an object; found ${shown(value)}`);
	for (const field of [
		'answer_sentence_id',
		'answer_sentence',
		'answer_sentence_relevance',
		'citation_assessment'
	])
		if (!has(value, field)) throw fail(`${field} is missing`);
	const id = value.answer_sentence_id;
	if (typeof id !== 'string' && typeof id !== 'number')
		throw fail(`answer_sentence_id must be a string; found ${shown(id)}`);
	const text = value.answer_sentence;
	if (typeof text !== 'string')
		throw fail(`answer_sentence must be a string; found ${shown(text)}`);
	const rawRelevance = value.answer_sentence_relevance;
	let relevance: Relevance | null = null;
	if (rawRelevance !== null) {
		const lower = typeof rawRelevance === 'string' ? rawRelevance.toLowerCase() : '';
		if (!(RELEVANCE_LABELS as readonly string[]).includes(lower))
			throw fail(
				`answer_sentence_relevance ${shown(rawRelevance)} is not one of ${RELEVANCE_LABELS.join(', ')} (or null)`
			);
		relevance = lower as Relevance;
	}
	const rawCitations = value.citation_assessment;
	let citations: BiogenCitation[] | null = null;
	if (rawCitations !== null) {
		if (!Array.isArray(rawCitations))
			throw fail(`citation_assessment must be a list or null; found ${shown(rawCitations)}`);
		citations = rawCitations.map((c: unknown, i) => {
			const at = `citation ${i + 1}`;
			if (!isRecord(c)) throw fail(`${at} must be an object; found ${shown(c)}`);
			const pmid = readPmid(c.cited_pmid);
			if (pmid === null)
				throw fail(`${at}: cited_pmid ${field(c, 'cited_pmid')} is not a whole number (a PMID)`);
			const relation = c.evidence_relation;
			if (
				typeof relation !== 'string' ||
				!(BIOGEN_RELATIONS as readonly string[]).includes(relation)
			)
				throw fail(
					`evidence_relation ${field(c, 'evidence_relation')} is not one of ${BIOGEN_RELATIONS.join(', ')}`
				);
			return { pmid, relation: relation as BiogenRelation };
		});
	}
	return { id: String(id), text, relevance, citations };
}

// ---------------------------------------------------------------------------------------------
// The figures

/**
 * Python's round(x, 2): the decimal with two places nearest to the binary value of x, an exact tie
 * (possible only when 8x is an odd integer) going to the even last digit. toFixed rounds the exact
 * binary value too, but sends ties up, so ties are settled here first.
 */
export function pyRound2(x: number): number {
	if (!Number.isFinite(x) || Math.abs(x) >= 1e15) return x;
	const eighths = x * 8; // exact: a power of two
	if (Number.isInteger(eighths) && eighths % 2 !== 0) {
		const low = Math.floor(x * 100); // x·100 = low + 0.5 exactly
		return (low % 2 === 0 ? low : low + 1) / 100;
	}
	return Number(x.toFixed(2));
}

const JUDGED: ReadonlySet<BiogenRelation> = new Set(['supporting', 'contradicting', 'neutral']);

/** The PMIDs of a question id judged supporting, contradicting or neutral in any run (the pool). */
function pools(questions: BiogenQuestion[]): Map<string, Set<number>> {
	const out = new Map<string, Set<number>>();
	for (const q of questions) {
		let pool = out.get(q.id);
		if (!pool) out.set(q.id, (pool = new Set()));
		for (const a of q.answers)
			for (const s of a.sentences)
				for (const c of s.citations ?? []) if (JUDGED.has(c.relation)) pool.add(c.pmid);
	}
	return out;
}

/**
 * The per-(question, run) percentages the run figures average, unrounded, in file order (runs in
 * the order each entry lists them): what a bootstrap over questions resamples.
 */
export function biogenQuestionFigures(questions: BiogenQuestion[]): QuestionRunFigures[] {
	const pool = pools(questions);
	const rows: QuestionRunFigures[] = [];
	for (const q of questions) {
		const poolSize = pool.get(q.id)!.size;
		for (const a of q.answers) {
			const total = a.sentences.length;
			let required = 0;
			let unnecessary = 0;
			let inappropriate = 0;
			let generated = 0;
			let covered = 0;
			let support = 0;
			let contradict = 0;
			const relevant = new Set<number>();
			const provided = new Set<number>();
			for (const s of a.sentences) {
				if (s.relevance === 'required') required++;
				else if (s.relevance === 'unnecessary') unnecessary++;
				else if (s.relevance === 'inappropriate') inappropriate++;
				const cited = new Set<number>();
				const supported = new Set<number>();
				const contradicted = new Set<number>();
				for (const c of s.citations ?? []) {
					cited.add(c.pmid);
					provided.add(c.pmid);
					if (JUDGED.has(c.relation)) relevant.add(c.pmid);
					if (c.relation === 'supporting') supported.add(c.pmid);
					else if (c.relation === 'contradicting') contradicted.add(c.pmid);
				}
				generated += cited.size;
				if (supported.size > 0) covered++;
				support += supported.size;
				contradict += contradicted.size;
			}
			rows.push({
				question: q.id,
				run: a.run,
				accurate: a.accurate,
				sentences: total,
				precision: total > 0 ? (required / total) * 100 : null,
				redundancy: total > 0 ? (unnecessary / total) * 100 : null,
				harmfulness: total > 0 ? (inappropriate / total) * 100 : null,
				citation_coverage: total > 0 ? (covered / total) * 100 : 0,
				citation_support_rate: generated > 0 ? (support / generated) * 100 : 0,
				citation_contradict_rate: generated > 0 ? (contradict / generated) * 100 : 0,
				document_recall: poolSize > 0 ? (relevant.size / poolSize) * 100 : null,
				document_precision: provided.size > 0 ? (relevant.size / provided.size) * 100 : 0
			});
		}
	}
	return rows;
}

/** Running sums of one run: a figure is its sum over the questions that count, over their number. */
interface Sums {
	answers: number;
	yes: number;
	sentenceAnswers: number;
	precision: number;
	redundancy: number;
	harmfulness: number;
	coverage: number;
	support: number;
	contradict: number;
	recallQuestions: number;
	recall: number;
	documentPrecision: number;
}

/** The run figures of a list of (question, run) rows, unrounded, summed in the rows' order. */
function runFigures(rows: readonly QuestionRunFigures[]): Map<string, RunFigures> {
	const sums = new Map<string, Sums>();
	for (const r of rows) {
		let s = sums.get(r.run);
		if (!s) {
			s = {
				answers: 0,
				yes: 0,
				sentenceAnswers: 0,
				precision: 0,
				redundancy: 0,
				harmfulness: 0,
				coverage: 0,
				support: 0,
				contradict: 0,
				recallQuestions: 0,
				recall: 0,
				documentPrecision: 0
			};
			sums.set(r.run, s);
		}
		s.answers++;
		if (r.accurate) s.yes++;
		if (r.precision !== null) {
			s.sentenceAnswers++;
			s.precision += r.precision;
			s.redundancy += r.redundancy!;
			s.harmfulness += r.harmfulness!;
		}
		s.coverage += r.citation_coverage;
		s.support += r.citation_support_rate;
		s.contradict += r.citation_contradict_rate;
		if (r.document_recall !== null) {
			s.recallQuestions++;
			s.recall += r.document_recall;
		}
		s.documentPrecision += r.document_precision;
	}
	const out = new Map<string, RunFigures>();
	for (const [run, s] of sums) {
		const withSentences = (sum: number) => (s.sentenceAnswers > 0 ? sum / s.sentenceAnswers : null);
		out.set(run, {
			accuracy: (s.yes / s.answers) * 100,
			acceptable_answers: s.yes,
			precision: withSentences(s.precision),
			redundancy: withSentences(s.redundancy),
			harmfulness: withSentences(s.harmfulness),
			citation_coverage: s.coverage / s.answers,
			citation_support_rate: s.support / s.answers,
			citation_contradict_rate: s.contradict / s.answers,
			document_recall: s.recallQuestions > 0 ? s.recall / s.recallQuestions : null,
			document_precision: s.documentPrecision / s.answers
		});
	}
	return out;
}

/** The official script's figures per run, rounded like Python's round(x, 2), and what it leaves undefined. */
export interface BiogenFigures {
	/** Distinct question ids. */
	questions: number;
	runs: Record<string, RunFigures>;
	/** Each case where the official script would divide by zero, and what is reported instead. */
	notes: string[];
}

/**
 * The TREC BioGen figures of each run, as the official evaluation script computes them: questions
 * in file order, runs in order of first appearance, percentages rounded to 2 decimals.
 */
export function biogenFigures(questions: BiogenQuestion[]): BiogenFigures {
	const rows = biogenQuestionFigures(questions);
	const notes: string[] = [];
	for (const r of rows) {
		const where = `run ${JSON.stringify(r.run)}, question ${JSON.stringify(r.question)}`;
		if (r.sentences === 0) notes.push(`${where}: no sentence, citation coverage counted as 0`);
		if (r.document_recall === null)
			notes.push(
				`${where}: no run cites a document judged supporting, contradicting or neutral, so the question is left out of document recall`
			);
	}
	const runs: [string, RunFigures][] = [];
	for (const [run, f] of runFigures(rows)) {
		if (f.precision === null)
			notes.push(
				`run ${JSON.stringify(run)}: no answer has a sentence, so precision, redundancy and harmfulness are undefined`
			);
		if (f.document_recall === null)
			notes.push(
				`run ${JSON.stringify(run)}: no question has a judged document, so document recall is undefined`
			);
		const round = (x: number | null) => (x === null ? null : pyRound2(x));
		runs.push([
			run,
			{
				accuracy: pyRound2(f.accuracy),
				acceptable_answers: f.acceptable_answers,
				precision: round(f.precision),
				redundancy: round(f.redundancy),
				harmfulness: round(f.harmfulness),
				citation_coverage: pyRound2(f.citation_coverage),
				citation_support_rate: pyRound2(f.citation_support_rate),
				citation_contradict_rate: pyRound2(f.citation_contradict_rate),
				document_recall: round(f.document_recall),
				document_precision: pyRound2(f.document_precision)
			}
		]);
	}
	// fromEntries, not assignment: a run named "__proto__" stays a run.
	return {
		questions: new Set(questions.map((q) => q.id)).size,
		runs: Object.fromEntries(runs),
		notes
	};
}

/**
 * Percentile bootstrap intervals of each run's percentages (unrounded), resampling whole question
 * ids with replacement (all their entries and runs together) with seededRandom(seed); every figure
 * of every run is computed on the same resamples. A run absent from a resample, or a figure
 * undefined on it, skips that resample (counted out of `valid`). A run that answered fewer than
 * MIN_INTERVAL_UNITS questions gets no interval, with the reason. The same seed gives the same
 * intervals.
 */
export function biogenIntervals(
	questions: BiogenQuestion[],
	opts: { resamples: number; seed: string; level?: number }
): Record<string, Record<PercentFigure, Interval>> {
	const level = checkBootstrapOptions(opts);
	const rows = biogenQuestionFigures(questions);
	const units: QuestionRunFigures[][] = [];
	const unitOf = new Map<string, number>();
	for (const r of rows) {
		let u = unitOf.get(r.question);
		if (u === undefined) {
			unitOf.set(r.question, (u = units.length));
			units.push([]);
		}
		units[u].push(r);
	}
	const runs = [...runFigures(rows).keys()];
	const answered = new Map<string, Set<string>>(runs.map((run) => [run, new Set()]));
	for (const r of rows) answered.get(r.run)!.add(r.question);
	const values = new Map<string, Float64Array[]>(
		runs.map((run) => [run, PERCENT_FIGURES.map(() => new Float64Array(opts.resamples))])
	);
	const valid = new Map<string, number[]>(runs.map((run) => [run, PERCENT_FIGURES.map(() => 0)]));
	const random = seededRandom(opts.seed);
	const n = units.length;
	const sample: QuestionRunFigures[] = [];
	for (let b = 0; b < opts.resamples && n > 0; b++) {
		sample.length = 0;
		for (let i = 0; i < n; i++) sample.push(...units[Math.floor(random() * n)]);
		for (const [run, f] of runFigures(sample)) {
			const columns = values.get(run)!;
			const counts = valid.get(run)!;
			PERCENT_FIGURES.forEach((key, k) => {
				const v = f[key];
				if (v !== null && Number.isFinite(v)) columns[k][counts[k]++] = v;
			});
		}
	}
	const out: [string, Record<PercentFigure, Interval>][] = runs.map((run) => {
		const few = tooFewUnits(answered.get(run)!.size, 'questions answered by the run');
		const columns = values.get(run)!;
		const counts = valid.get(run)!;
		const intervals = PERCENT_FIGURES.map((key, k): [PercentFigure, Interval] => [
			key,
			few ?? percentileInterval(columns[k].subarray(0, counts[k]), level, opts.resamples)
		]);
		return [run, Object.fromEntries(intervals) as Record<PercentFigure, Interval>];
	});
	return Object.fromEntries(out);
}
