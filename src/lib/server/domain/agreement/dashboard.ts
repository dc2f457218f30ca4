import { desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db } from '../../db/client';
import { assignment, dataset, study, studyQuestion } from '../../db/schema';
import {
	cachedEvidenceReport,
	cachedLeaderboards,
	cachedPairwiseReport,
	cachedRubricReport,
	cachedStudyAgreement,
	cachedVerificationAgreement,
	type Defer
} from './cache';
import { databaseToken, inBackground, runningReport, type Pending } from './background';
import { studyRuns } from './extract';
import { excludedCounts, excludedReviewCounts, excludedSentence } from '../exclusions';

/** Default bootstrap resamples and seed: fixed, so the same data give the same intervals. */
export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 'cliniq';
/** More resamples than this would tie up the server for little gain in precision. */
export const MAX_RESAMPLES = 10_000;

const id = z.coerce.number().int().positive().optional().catch(undefined);

/** The dashboard's choices as read from a GET query (bad values fall back to the defaults). */
export const dashboardQuery = z.object({
	dataset: id,
	study: id,
	run: id,
	resamples: z.coerce.number().int().min(0).max(MAX_RESAMPLES).catch(DEFAULT_RESAMPLES),
	seed: z.string().trim().min(1).max(100).catch(DEFAULT_SEED)
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** Reads the dashboard's query parameters; absent or invalid values take their defaults. */
export function readDashboardQuery(params: URLSearchParams): DashboardQuery {
	const raw = Object.fromEntries([...params].filter(([, v]) => v !== '')) as Record<string, string>;
	return dashboardQuery.parse({
		...raw,
		resamples: raw.resamples ?? DEFAULT_RESAMPLES,
		seed: raw.seed ?? DEFAULT_SEED
	});
}

/** A study as the dashboard lists it, with how much has been ranked in it. */
interface StudyChoice {
	id: number;
	rankings: number;
	/** Questions with submitted rankings of two or more physicians: what agreement needs. */
	judged: number;
}

/**
 * Which study the dashboard shows and why: the one asked for; else the newest whose physicians'
 * agreement can be computed (a question ranked by 2+ physicians); else the newest with any
 * submitted ranking; else the newest study, saying that none has a ranking. `newerWithout`
 * counts the newer studies passed over.
 */
export type StudyPick = {
	how: 'asked' | 'judged' | 'ranked' | 'none ranked' | 'no study';
	newerWithout: number;
};

function pickStudy(
	studies: StudyChoice[],
	asked: number | undefined
): { id: number | undefined; pick: StudyPick } {
	if (asked !== undefined && studies.some((s) => s.id === asked))
		return { id: asked, pick: { how: 'asked', newerWithout: 0 } };
	if (studies.length === 0) return { id: undefined, pick: { how: 'no study', newerWithout: 0 } };
	for (const [how, test] of [
		['judged', (s: StudyChoice) => Number(s.judged) > 0],
		['ranked', (s: StudyChoice) => Number(s.rankings) > 0]
	] as const) {
		const at = studies.findIndex(test);
		if (at >= 0) return { id: studies[at].id, pick: { how, newerWithout: at } };
	}
	return { id: studies[0].id, pick: { how: 'none ranked', newerWithout: 0 } };
}

/** The datasets and studies an organiser can pick, and the scoring runs of the chosen study. */
export async function dashboardChoices(db: Db, studyId: number | undefined) {
	const datasets = await db
		.select({ id: dataset.id, name: dataset.name })
		.from(dataset)
		.orderBy(dataset.id);
	const listed = await db
		.select({ id: study.id, name: study.name, state: study.state, design: study.design })
		.from(study)
		.orderBy(desc(study.id));
	// Every study's submitted rankings and questions ranked by 2+ physicians, in one pass over the
	// submitted assignments (one per physician and question, by a unique key: counting them counts
	// the physicians).
	const counts = new Map(
		rowsOf<{ study: number; rankings: number; judged: number }>(
			await db.execute(sql`select study_id as study, sum(n)::int as rankings,
				(count(*) filter (where n >= 2))::int as judged
				from (select q.study_id, count(*) as n from ${assignment} a
					join ${studyQuestion} q on q.id = a.study_question_id
					where a.state = 'submitted' group by q.study_id, q.id) per_question
				group by study_id`)
		).map((c) => [Number(c.study), c])
	);
	const studies = listed.map((s) => ({
		...s,
		rankings: Number(counts.get(s.id)?.rankings ?? 0),
		judged: Number(counts.get(s.id)?.judged ?? 0)
	}));
	const { id: chosen, pick } = pickStudy(studies, studyId);
	const runs = chosen ? await studyRuns(db, chosen) : [];
	return { datasets, studies, runs, chosen, pick };
}

/**
 * Everything the dashboard shows for a query: the choices, and the cached verification and study
 * reports of the chosen (or first) dataset and study — for a rubric study its rubric report
 * (`rubric`) in place of the ranking report (`study` null), for a pairwise study its pairwise report
 * (`pairwise`), for an evidence study its BioGen figures (`evidence`), and for any design the Bradley–Terry leaderboards its questions got in it and in
 * other studies (`leaderboards`).
 */
export function dashboardReports(db: Db, query: DashboardQuery) {
	return reportsWith<never>(db, query, () => undefined);
}

/**
 * dashboardReports for a page: a report not ready within `waitMs` is Pending (where its
 * computation has got), and goes on computing beside the page, which asks again. Every report is
 * looked up in the cache before any is computed: a computation would hold up the lookups after it.
 */
export async function dashboardReportsOrProgress(db: Db, query: DashboardQuery, waitMs: number) {
	const token = databaseToken(db);
	const reports = await reportsWith<Later>(db, query, (name) => {
		const defer: Defer<Later> = async ({ identity, fingerprint }, compute) => ({
			later: (deadline: number) =>
				inBackground(
					`${token}:${identity}:${fingerprint}`,
					name,
					compute,
					deadline - Date.now(),
					`${token}:${identity}`
				)
		});
		// While a report is computed here, a page asking again joins it without reading its data.
		defer.running = (identity) => {
			const running = runningReport(`${token}:${identity}`);
			return running && { later: (deadline: number) => running.wait(deadline - Date.now()) };
		};
		return defer;
	});
	const deadline = Date.now() + waitMs;
	const settle = async <T>(report: T | Later) =>
		(isLater(report) ? await report.later(deadline) : report) as Exclude<T, Later> | Pending;
	const [verification, study, rubric, pairwise, evidence, leaderboards] = await Promise.all([
		settle(reports.verification),
		settle(reports.study),
		settle(reports.rubric),
		settle(reports.pairwise),
		settle(reports.evidence),
		settle(reports.leaderboards)
	]);
	return { ...reports, verification, study, rubric, pairwise, evidence, leaderboards };
}

/** A report not in the cache, to be computed once every report has been looked up. */
interface Later {
	later: (deadline: number) => Promise<unknown>;
}

function isLater(value: unknown): value is Later {
	return value !== null && typeof value === 'object' && 'later' in value;
}

/** How the report named is computed when it is not in the cache (undefined: in turn). */
type Obtain<P> = (name: string) => Defer<P> | undefined;

async function reportsWith<P>(db: Db, query: DashboardQuery, defer: Obtain<P>) {
	const { chosen, pick, ...choices } = await dashboardChoices(db, query.study);
	const datasetId = query.dataset ?? choices.datasets[0]?.id ?? null;
	const studyId = chosen ?? null;
	const opts = { resamples: query.resamples, seed: query.seed };
	const known = (list: { id: number }[], id: number | null) =>
		id !== null && list.some((x) => x.id === id) ? id : null;
	const ds = known(choices.datasets, datasetId);
	const st = known(choices.studies, studyId);
	const design = choices.studies.find((s) => s.id === st)?.design ?? null;
	const rubric = design === 'rubric';
	const pairwise = design === 'pairwise';
	const evidence = design === 'evidence';
	const runId = query.run && choices.runs.some((r) => r.id === query.run) ? query.run : null;
	return {
		choices,
		query: { ...query, dataset: ds, study: st, run: runId },
		studyPick: pick,
		verification:
			ds === null
				? null
				: await cachedVerificationAgreement(db, ds, opts, defer("the reviewers' agreement report")),
		study:
			st === null || design !== 'ranking'
				? null
				: await cachedStudyAgreement(
						db,
						st,
						{ ...opts, runId },
						defer("the study's agreement report")
					),
		rubric:
			st !== null && rubric
				? await cachedRubricReport(db, st, opts, defer("the study's rubric report"))
				: null,
		/** The shown study is a rubric study (its report is null until it opens). */
		rubricStudy: rubric,
		pairwise:
			st !== null && pairwise
				? await cachedPairwiseReport(db, st, opts, defer("the study's pairwise report"))
				: null,
		/** The shown study is a pairwise study (its report is null until it opens). */
		pairwiseStudy: pairwise,
		/** An evidence study's BioGen figures and agreement between assessors. */
		evidence:
			st !== null && evidence
				? await cachedEvidenceReport(
						db,
						st,
						{ ...opts, defaultSeed: DEFAULT_SEED },
						defer("the study's evidence report")
					)
				: null,
		/** Bradley–Terry leaderboards of the study and of the studies sharing its questions. */
		leaderboards:
			st === null
				? null
				: await cachedLeaderboards(db, st, opts, defer('the Bradley–Terry leaderboards')),
		/** What exclusions leave out of the shown study's and dataset's figures, read fresh. */
		excluded: {
			study: st === null ? null : excludedSentence(await excludedCounts(db, st)),
			reviews: ds === null ? null : excludedSentence(await excludedReviewCounts(db, ds))
		}
	};
}
