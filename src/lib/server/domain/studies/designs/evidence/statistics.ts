// The evidence design's figures: the TREC BioGen figures per run with bootstrap intervals, read
// from the official export exactly as `cliniq stats evidence` reads the file (so the page and the
// command agree), and agreement between assessors on the answers two or more finished.
import { sql } from 'drizzle-orm';
import type { EvidenceMode } from '../../../../../constants';
import { rowsOf, type Db } from '../../../../db/client';
import {
	biogenFigures,
	biogenIntervals,
	parseBiogenAssessments,
	type BiogenFigures,
	type PercentFigure
} from '../../../../../stats/biogen';
import { krippendorffAlpha } from '../../../../../stats/ratings';
import { meanSpanF1, type Span } from '../../../../../stats/spans';
import { undefinedStat, type Interval, type Rating, type Stat } from '../../../../../stats/types';
import { evidenceModeOf } from './design';
import { finishedAssessments, officialAssessments, type FinishedAssessment } from './export';
import { rollUpSentence } from './rollup';
import { excludedCounts, type ExcludedCounts } from '../../../exclusions';

/** Resamples of the report's intervals; the seed is `evidence-<study id>` (a report repeats). */
export const EVIDENCE_RESAMPLES = 1000;

/** An agreement statistic with the number of units (answers, sentences, citations) it rests on. */
export type UnitStat = Stat & { units: number };

/** Agreement between assessors of the same answers. */
export interface EvidenceAgreement {
	/** Krippendorff's alpha (nominal) of is_answer_accurate; a unit is an answer. */
	answerAccurate: UnitStat;
	/** Of whether a sentence is interpretable (answers both said answer the question); unit: a sentence. */
	interpretable: UnitStat;
	/** Of the rolled-up sentence relevance; unit: a sentence. */
	relevance: UnitStat;
	/** Of the rolled-up (official) relation of each cited document; unit: a sentence and PMID. */
	relation: UnitStat;
	/** Mean token F1 of the assertion spans over sentences two assessors both marked (per pair). */
	spans: { value: number; n: number; reason?: undefined } | { value: null; n: 0; reason: string };
}

/** The evidence report of a study (see evidenceReport). */
export interface EvidenceReport {
	mode: EvidenceMode;
	figures: BiogenFigures;
	intervals: Record<string, Record<PercentFigure, Interval>>;
	agreement: EvidenceAgreement;
	/** Answers in the study, answers with a finished assessment, with two or more. */
	counts: { answers: number; assessed: number; doubleAssessed: number };
	bootstrap: { resamples: number; seed: string };
	/** Assessments the standing exclusions leave out of every figure (gold questions never count). */
	excluded: ExcludedCounts;
}

const NONE_DOUBLE = 'no answer has two finished assessments yet';

/** Alpha (nominal) of ratings on units rated two or more times; the reason names the gap. */
function alphaOf(ratings: Rating[], what: string): UnitStat {
	const per = new Map<string, number>();
	for (const r of ratings) per.set(r.unit, (per.get(r.unit) ?? 0) + 1);
	const units = [...per.values()].filter((n) => n >= 2).length;
	if (!units) return { ...undefinedStat(`no ${what} was judged by two assessors`), units };
	return { ...krippendorffAlpha(ratings, 'nominal'), units };
}

/** Agreement between the assessors of each answer finished two or more times. */
export function evidenceAgreement(
	assessments: readonly FinishedAssessment[],
	mode: EvidenceMode
): EvidenceAgreement {
	const byUnit = new Map<number, FinishedAssessment[]>();
	for (const a of assessments) byUnit.set(a.unitId, [...(byUnit.get(a.unitId) ?? []), a]);
	const doubled = [...byUnit.values()].filter((list) => list.length >= 2);
	const accurate: Rating[] = [];
	const interpretable: Rating[] = [];
	const relevance: Rating[] = [];
	const relation: Rating[] = [];
	const spanPairs: { a: Span[]; b: Span[] }[] = [];
	for (const list of doubled)
		for (const a of list) {
			const rater = a.assessor;
			accurate.push({ unit: `${a.unitId}`, rater, value: a.answersQuestion ? 'yes' : 'no' });
			if (!a.answersQuestion) continue;
			for (const s of a.sentences) {
				const unit = `${a.unitId}:${s.position}`;
				if (s.state?.interpretable != null)
					interpretable.push({ unit, rater, value: String(s.state.interpretable) });
				const r = rollUpSentence(true, s);
				if (r.answer_sentence_relevance)
					relevance.push({ unit, rater, value: r.answer_sentence_relevance });
				for (const c of r.citation_assessment ?? [])
					relation.push({ unit: `${unit}:${c.cited_pmid}`, rater, value: c.evidence_relation });
			}
		}
	if (mode === 'assertion')
		for (const list of doubled)
			for (let i = 0; i < list.length; i++)
				for (let j = i + 1; j < list.length; j++) {
					const [x, y] = [list[i], list[j]];
					if (!x.answersQuestion || !y.answersQuestion) continue;
					for (const s of x.sentences) {
						const a = s.state?.assertions ?? [];
						const b = y.sentences.find((t) => t.position === s.position)?.state?.assertions ?? [];
						if (a.length && b.length) spanPairs.push({ a, b });
					}
				}
	const none = (what: string): UnitStat => ({
		...undefinedStat(doubled.length ? `no ${what} was judged by two assessors` : NONE_DOUBLE),
		units: 0
	});
	return {
		answerAccurate: doubled.length ? alphaOf(accurate, 'answer') : none('answer'),
		interpretable: doubled.length ? alphaOf(interpretable, 'sentence') : none('sentence'),
		relevance: doubled.length ? alphaOf(relevance, 'sentence') : none('sentence'),
		relation: doubled.length ? alphaOf(relation, 'citation') : none('citation'),
		spans:
			mode === 'sentence'
				? {
						value: null,
						n: 0,
						reason: 'a per-sentence study has no spans: each judgement covers the whole sentence'
					}
				: doubled.length
					? meanSpanF1(spanPairs)
					: { value: null, n: 0, reason: NONE_DOUBLE }
	};
}

/**
 * The evidence report of a study (null when it is not an evidence study): the official figures of
 * its BioGen export per run (biogenFigures on parseBiogenAssessments of the file, as `cliniq stats
 * evidence` computes them), their 95 % bootstrap intervals over questions, agreement between
 * assessors, and how many answers are assessed.
 */
export async function evidenceReport(
	db: Db,
	studyId: number,
	options: { resamples: number; seed: string } = {
		resamples: EVIDENCE_RESAMPLES,
		seed: `evidence-${studyId}`
	}
): Promise<EvidenceReport | null> {
	const mode = await evidenceModeOf(db, studyId);
	if (!mode) return null;
	const assessments = await finishedAssessments(db, studyId);
	// The file as it is downloaded and read: JSON text, then the official layout's checks.
	const questions = parseBiogenAssessments(
		JSON.parse(JSON.stringify(officialAssessments(assessments)))
	);
	const [{ answers }] = rowsOf<unknown>(
		await db.execute(sql`select count(*)::int as answers from study_question
			where study_id = ${studyId} and unit > 0 and not gold`)
	) as { answers: number }[];
	const perUnit = new Map<number, number>();
	for (const a of assessments) perUnit.set(a.unitId, (perUnit.get(a.unitId) ?? 0) + 1);
	return {
		mode,
		figures: biogenFigures(questions),
		intervals: biogenIntervals(questions, options),
		agreement: evidenceAgreement(assessments, mode),
		counts: {
			answers,
			assessed: perUnit.size,
			doubleAssessed: [...perUnit.values()].filter((n) => n >= 2).length
		},
		bootstrap: options,
		excluded: await excludedCounts(db, studyId)
	};
}
