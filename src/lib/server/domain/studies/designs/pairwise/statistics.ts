// The pairwise design's figures: the stored preferences read as rows for src/lib/stats/ (one
// definition of each statistic) and the report the study's agreement page shows: the
// Bradley–Terry leaderboard with intervals (plain and length-controlled), the win / tie / loss
// matrix, position and verbosity bias, agreement between physicians, the judges against them, and
// the leaderboards the same questions got in other studies.
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../../db/client';
import {
	assignment,
	candidate,
	judge,
	judgePreference,
	model,
	studyQuestion,
	user
} from '../../../../db/schema';
import { btLeaderboard, type Battle } from '../../../../../stats/bradley-terry';
import {
	canonicalOutcome,
	positionBias,
	preferenceAgreement,
	preferenceBattles,
	verbosityBias,
	winMatrix,
	type PreferenceRow
} from '../../../../../stats/preference';
import { cohenKappa } from '../../../../../stats/ratings';
import { styleControlledBt, type LengthBattle } from '../../../../../stats/style-control';
import { defined, undefinedStat, type Rating, type Stat } from '../../../../../stats/types';
import type { LabelledBattles } from '../plug';
import { questionKeySql } from '../../question-key';
import { pairwiseAspectPreference, pairwiseJudgement } from './schema';
import { pairwiseForm } from './submit';
import { countsInFigures, excludedCounts } from '../../../exclusions';

const leftAnswer = alias(candidate, 'left_answer');
const rightAnswer = alias(candidate, 'right_answer');
const leftModel = alias(model, 'left_model');
const rightModel = alias(model, 'right_model');

/** A preference as the statistics read it, with the judgement's id and aspects. */
export interface StoredPreference extends PreferenceRow {
	judgementId: number;
	/** Per aspect code: left, right or tie. */
	aspects: Record<string, 'left' | 'right' | 'tie'>;
}

/**
 * Every preference of a pairwise study, in submission order: the question keyed across studies,
 * the physician by pseudonym, the models by name (`reference` for the reference answer) on the
 * side each was shown, the outcome as shown and the lengths of the shown texts.
 */
export async function preferenceRows(db: Db, studyId: number): Promise<StoredPreference[]> {
	const rows = await db
		.select({
			judgementId: pairwiseJudgement.id,
			question: questionKeySql(),
			rater: user.pseudonym,
			leftReference: leftAnswer.isReference,
			leftModel: leftModel.name,
			rightReference: rightAnswer.isReference,
			rightModel: rightModel.name,
			outcome: pairwiseJudgement.outcome,
			leftLength: sql<number>`char_length(coalesce(${leftAnswer.shownText}, ${leftAnswer.text}))::int`,
			rightLength: sql<number>`char_length(coalesce(${rightAnswer.shownText}, ${rightAnswer.text}))::int`
		})
		.from(pairwiseJudgement)
		.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(user, eq(user.id, pairwiseJudgement.raterId))
		.innerJoin(leftAnswer, eq(leftAnswer.id, pairwiseJudgement.leftCandidateId))
		.innerJoin(rightAnswer, eq(rightAnswer.id, pairwiseJudgement.rightCandidateId))
		.leftJoin(leftModel, eq(leftModel.id, leftAnswer.modelId))
		.leftJoin(rightModel, eq(rightModel.id, rightAnswer.modelId))
		.where(
			and(
				eq(studyQuestion.studyId, studyId),
				countsInFigures(
					pairwiseJudgement.raterId,
					studyQuestion.studyId,
					pairwiseJudgement.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(asc(pairwiseJudgement.id));
	const aspectsOf = await aspectPreferencesOf(db, studyId);
	return rows.map((r) => ({
		judgementId: r.judgementId,
		question: r.question,
		rater: r.rater,
		left: r.leftReference ? 'reference' : (r.leftModel ?? 'unknown'),
		right: r.rightReference ? 'reference' : (r.rightModel ?? 'unknown'),
		outcome: r.outcome,
		leftLength: r.leftLength,
		rightLength: r.rightLength,
		aspects: aspectsOf.get(r.judgementId) ?? {}
	}));
}

/** Battles of one aspect's preferences (left model = model_a). */
function aspectBattles(rows: StoredPreference[], aspect: string): Battle[] {
	return rows.flatMap((r) => {
		const o = r.aspects[aspect];
		if (!o) return [];
		return [
			{
				question: r.question,
				modelA: r.left,
				modelB: r.right,
				winner: o === 'left' ? 'model_a' : o === 'right' ? 'model_b' : 'tie'
			} satisfies Battle
		];
	});
}

/** The battles of a pairwise study: the overall preferences, then each aspect's that was given. */
export async function pairwiseStudyBattles(db: Db, studyId: number): Promise<LabelledBattles[]> {
	const rows = await preferenceRows(db, studyId);
	const aspects = [...new Set(rows.flatMap((r) => Object.keys(r.aspects)))].sort();
	return [
		{ label: 'Preferences', battles: preferenceBattles(rows) },
		...aspects.map((a) => ({ label: `Aspect ${a} preferences`, battles: aspectBattles(rows, a) }))
	];
}

/** Resamples of the report's bootstrap intervals, and their seed (fixed: a report repeats). */
export const PAIRWISE_BOOTSTRAP = { resamples: 1000, seed: 'pairwise-report' };

/** The most resamples the length-controlled leaderboard's intervals take (see pairwiseReport). */
export const STYLE_RESAMPLES = 200;

/** What one judge said about the pairs the physicians judged, against them. */
export interface JudgeVersusPhysicians {
	judge: string;
	/** Pairs (question, two models) both the judge and at least one physician judged. */
	pairs: number;
	/** Share of physician judgements (three-way outcome, by model) the judge agrees with. */
	agreement: Stat;
	/** Pairs with a physicians' majority (three-way), and the share where the judge matches it. */
	majorityPairs: number;
	majorityAgreement: Stat;
	/** Cohen's kappa between the judge and the physicians' majority (three-way). */
	kappa: Stat;
}

/**
 * Each imported judge's overall preferences against the physicians' on the same pairs, the
 * outcome coded by model (first / second in name order / tie), never by side.
 */
export async function judgesVersusPhysicians(
	db: Db,
	studyId: number,
	rows: StoredPreference[]
): Promise<JudgeVersusPhysicians[]> {
	const answerA = alias(candidate, 'answer_a');
	const answerB = alias(candidate, 'answer_b');
	const modelA = alias(model, 'model_a');
	const modelB = alias(model, 'model_b');
	const prefs = await db
		.select({
			judge: judge.name,
			question: questionKeySql(),
			aReference: answerA.isReference,
			aModel: modelA.name,
			bReference: answerB.isReference,
			bModel: modelB.name,
			preferred: judgePreference.preferred
		})
		.from(judgePreference)
		.innerJoin(judge, eq(judge.id, judgePreference.judgeId))
		.innerJoin(answerA, eq(answerA.id, judgePreference.candidateAId))
		.innerJoin(answerB, eq(answerB.id, judgePreference.candidateBId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, answerA.studyQuestionId))
		.leftJoin(modelA, eq(modelA.id, answerA.modelId))
		.leftJoin(modelB, eq(modelB.id, answerB.modelId))
		.where(and(eq(judge.studyId, studyId), eq(judgePreference.criterion, 'overall')));
	const pairKey = (q: string, x: string, y: string) => JSON.stringify([q, ...[x, y].sort()]);
	const physicians = new Map<string, string[]>();
	for (const r of rows) {
		const k = pairKey(r.question, r.left, r.right);
		physicians.set(k, [...(physicians.get(k) ?? []), canonicalOutcome(r)]);
	}
	const majority = (outcomes: string[]) => {
		const counts = new Map<string, number>();
		for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
		const best = Math.max(...counts.values());
		const top = [...counts].filter(([, n]) => n === best);
		return top.length === 1 ? top[0][0] : null;
	};
	const byJudge = new Map<string, { key: string; outcome: string }[]>();
	for (const p of prefs) {
		const a = p.aReference ? 'reference' : (p.aModel ?? 'unknown');
		const b = p.bReference ? 'reference' : (p.bModel ?? 'unknown');
		const outcome =
			p.preferred === 'tie'
				? 'tie'
				: canonicalOutcome({
						question: p.question,
						rater: p.judge,
						left: a,
						right: b,
						outcome: p.preferred === 'A' ? 'left' : 'right'
					});
		byJudge.set(p.judge, [
			...(byJudge.get(p.judge) ?? []),
			{ key: pairKey(p.question, a, b), outcome }
		]);
	}
	return [...byJudge]
		.sort(([x], [y]) => x.localeCompare(y))
		.map(([name, list]) => {
			let agree = 0;
			let judged = 0;
			let pairs = 0;
			const ratings: Rating[] = [];
			let majorityHits = 0;
			for (const { key, outcome } of list) {
				const theirs = physicians.get(key);
				if (!theirs) continue;
				pairs++;
				judged += theirs.length;
				agree += theirs.filter((o) => o === outcome).length;
				const m = majority(theirs);
				if (m !== null) {
					ratings.push({ unit: key, rater: 'judge', value: outcome });
					ratings.push({ unit: key, rater: 'physicians', value: m });
					if (m === outcome) majorityHits++;
				}
			}
			const majorityPairs = ratings.length / 2;
			return {
				judge: name,
				pairs,
				agreement: judged
					? defined(agree / judged)
					: undefinedStat('no pair the judge judged was judged by a physician'),
				majorityPairs,
				majorityAgreement: majorityPairs
					? defined(majorityHits / majorityPairs)
					: undefinedStat('no pair has a physicians’ majority'),
				kappa: majorityPairs
					? cohenKappa(ratings)
					: undefinedStat('no pair has a physicians’ majority')
			};
		});
}

/**
 * The pairwise report of a study: null when it is not a pairwise study. Leaderboards plain and
 * length-controlled with bootstrap intervals over questions, the win / tie / loss matrix, position
 * and verbosity bias, agreement between physicians on each pair, each aspect's leaderboard, the
 * judges against the physicians. (The leaderboards of the same questions in other studies are
 * `compareLeaderboards`, ../../battles.ts.)
 */
export async function pairwiseReport(
	db: Db,
	studyId: number,
	options: { resamples: number; seed: string } = PAIRWISE_BOOTSTRAP
) {
	const form = await pairwiseForm(db, studyId);
	if (!form) return null;
	const rows = await preferenceRows(db, studyId);
	const battles = preferenceBattles(rows);
	const lengthBattles: LengthBattle[] = battles.map((b, i) => ({
		...b,
		lengthA: rows[i].leftLength!,
		lengthB: rows[i].rightLength!
	}));
	return {
		judgements: rows.length,
		/** Judgements the standing exclusions leave out of every figure below. */
		excluded: await excludedCounts(db, studyId),
		physicians: new Set(rows.map((r) => r.rater)).size,
		questions: new Set(rows.map((r) => r.question)).size,
		outcomes: {
			left: rows.filter((r) => r.outcome === 'left').length,
			right: rows.filter((r) => r.outcome === 'right').length,
			tieGood: rows.filter((r) => r.outcome === 'tie_good').length,
			tieBad: rows.filter((r) => r.outcome === 'tie_bad').length
		},
		leaderboard: btLeaderboard(battles, options),
		// Each resample of the length-controlled fit is a full logistic regression (about 30 ms on
		// 140,000 battles), so its intervals take at most STYLE_RESAMPLES resamples.
		styleControlled: rows.length
			? styleControlledBt(lengthBattles, {
					...options,
					resamples: Math.min(options.resamples, STYLE_RESAMPLES)
				})
			: null,
		matrix: winMatrix(battles),
		positionBias: positionBias(rows),
		verbosityBias: verbosityBias(rows),
		agreement: preferenceAgreement(rows),
		aspects: form.aspects.map((a) => ({
			...a,
			leaderboard: btLeaderboard(aspectBattles(rows, a.code), options)
		})),
		judges: await judgesVersusPhysicians(db, studyId, rows),
		bootstrap: options
	};
}
export type PairwiseReport = NonNullable<Awaited<ReturnType<typeof pairwiseReport>>>;

/** Each judgement's aspect preferences (as shown: left, right, tie) in a study, by judgement id. */
export async function aspectPreferencesOf(
	db: Db,
	studyId: number
): Promise<Map<number, Record<string, 'left' | 'right' | 'tie'>>> {
	const rows = await db
		.select({
			judgementId: pairwiseAspectPreference.judgementId,
			aspect: pairwiseAspectPreference.aspect,
			outcome: pairwiseAspectPreference.outcome
		})
		.from(pairwiseAspectPreference)
		.innerJoin(pairwiseJudgement, eq(pairwiseJudgement.id, pairwiseAspectPreference.judgementId))
		.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.where(
			and(
				eq(studyQuestion.studyId, studyId),
				countsInFigures(
					pairwiseJudgement.raterId,
					studyQuestion.studyId,
					pairwiseJudgement.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(asc(pairwiseAspectPreference.aspect));
	const of = new Map<number, Record<string, 'left' | 'right' | 'tie'>>();
	for (const a of rows) of.set(a.judgementId, { ...of.get(a.judgementId), [a.aspect]: a.outcome });
	return of;
}
