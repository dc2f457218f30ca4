import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { statsCache } from '../../db/schema';
import {
	compareLeaderboards,
	evidenceReport,
	frozenRubric,
	PAIRWISE_BOOTSTRAP,
	pairwiseForm,
	pairwiseReport,
	REPORT_BOOTSTRAP,
	rubricReport,
	studyJudgeInput,
	type ComparedLeaderboard,
	type EvidenceReport,
	type PairwiseReport,
	type RubricReport
} from '../studies';
import {
	evidenceFingerprint,
	leaderboardFingerprint,
	pairwiseFingerprint,
	rubricFingerprint,
	studyFingerprint,
	studyRuns,
	verificationFingerprint
} from './extract';
import { reportPart } from '../../progress';
import { resamplesPart } from './background';
import { studyAgreement, type StudyAgreement, type StudyOptions } from './study';
import {
	verificationAgreement,
	type AgreementOptions,
	type VerificationAgreement
} from './verification';

/** A report with when it was computed; `fresh` says it was computed by this call. */
export interface Cached<T> {
	result: T;
	computedAt: Date;
	fresh: boolean;
}

/**
 * How a report that is not in the cache is computed: in turn (none given), or by a runner that may
 * give something else in its place (P) while it computes, e.g. its progress (see ./background).
 * `identity` names the report and its options, `fingerprint` the state of its data.
 */
export interface Defer<P> {
	<T>(report: { identity: string; fingerprint: string }, compute: () => Promise<T>): Promise<T | P>;
	/**
	 * What stands for the report while the runner computes it under this identity, if it does:
	 * then the data's state is not read at all (a page asking again every second while a report
	 * is computed reads no fingerprint). Once it ends, the next call reads the state again, and a
	 * report computed from data changed meanwhile is computed again.
	 */
	running?(identity: string): P | undefined;
}

/** The reports the cache keeps, one row per report, subject and options. */
export type ReportKind =
	'verification' | 'study' | 'rubric' | 'pairwise' | 'evidence' | 'leaderboards';

/**
 * Each report's method, counted up when its computation changes what it gives for the same data
 * (0: as first cached). A report stored by an earlier method no longer matches its fingerprint,
 * so it is computed again rather than shown beside reports of the method of today.
 * study 1: each resample of the experts' leaderboard refitted by the chord method, not MM.
 */
export const METHOD: Record<ReportKind, number> = {
	verification: 0,
	study: 1,
	rubric: 0,
	pairwise: 0,
	evidence: 0,
	leaderboards: 0
};

/** The fingerprint a report is stored under: its data's, and its method's if counted up. */
function withMethod(kind: ReportKind, fingerprint: string): string {
	return METHOD[kind] ? `${fingerprint};method ${METHOD[kind]}` : fingerprint;
}

async function cached<T, P = never>(
	db: Db,
	kind: ReportKind,
	subjectId: number,
	options: string,
	fingerprintOf: () => Promise<string>,
	compute: () => Promise<T>,
	defer?: Defer<P>
): Promise<Cached<T> | P> {
	const identity = `${kind}:${subjectId}:${options}`;
	const running = defer?.running?.(identity);
	if (running !== undefined) return running;
	const fingerprint = withMethod(kind, await fingerprintOf());
	const where = and(
		eq(statsCache.kind, kind),
		eq(statsCache.subjectId, subjectId),
		eq(statsCache.options, options)
	);
	const [row] = await db.select().from(statsCache).where(where);
	if (row && row.fingerprint === fingerprint)
		return { result: row.result as T, computedAt: row.computedAt, fresh: false };
	const computeAndStore = () =>
		computeAndStoreReport(db, kind, subjectId, options, fingerprint, compute);
	return defer ? defer({ identity, fingerprint }, computeAndStore) : computeAndStore();
}

async function computeAndStoreReport<T>(
	db: Db,
	kind: ReportKind,
	subjectId: number,
	options: string,
	fingerprint: string,
	compute: () => Promise<T>
): Promise<Cached<T>> {
	const result = await compute();
	const computedAt = new Date();
	// A JSON round trip stores exactly what a later read returns (no undefined keys, no Dates).
	const stored = JSON.parse(JSON.stringify(result)) as T;
	await db
		.insert(statsCache)
		.values({ kind, subjectId, options, fingerprint, result: stored, computedAt })
		.onConflictDoUpdate({
			target: [statsCache.kind, statsCache.subjectId, statsCache.options],
			set: { fingerprint, result: stored, computedAt }
		});
	return { result: stored, computedAt, fresh: true };
}

/** `verificationAgreement`, recomputed only when the dataset's reviews or adjudications changed. */
export async function cachedVerificationAgreement<P = never>(
	db: Db,
	datasetId: number,
	opts: AgreementOptions,
	defer?: Defer<P>
): Promise<Cached<VerificationAgreement> | P> {
	return cached(
		db,
		'verification',
		datasetId,
		`resamples=${opts.resamples};seed=${opts.seed}`,
		() => verificationFingerprint(db, datasetId),
		() => verificationAgreement(db, datasetId, opts),
		defer
	);
}

/** `studyAgreement`, recomputed only when the study's rankings or the run's scores changed. */
export async function cachedStudyAgreement<P = never>(
	db: Db,
	studyId: number,
	opts: AgreementOptions & { runId?: number | null },
	defer?: Defer<P>
): Promise<Cached<StudyAgreement> | P> {
	// The newest run is part of the key: a new run replaces the numbers of "the newest".
	const runId = opts.runId ?? (await studyRuns(db, studyId))[0]?.id ?? null;
	const options: StudyOptions = { resamples: opts.resamples, seed: opts.seed, runId };
	return cached(
		db,
		'study',
		studyId,
		`resamples=${opts.resamples};seed=${opts.seed};run=${runId ?? 'none'}`,
		() => studyFingerprint(db, studyId, runId),
		() => studyAgreement(db, studyId, options),
		defer
	);
}

/**
 * The rubric report of a rubric study (null when it has not opened: no frozen rubric), recomputed
 * only when a score sheet is submitted or the judges' or scoring runs' scores change: on a large
 * study the report takes tens of seconds (src/lib/stats/README.md). Its intervals need at least one
 * resample, so 0 resamples gives the report's own default.
 */
export async function cachedRubricReport<P = never>(
	db: Db,
	studyId: number,
	opts: AgreementOptions,
	defer?: Defer<P>
): Promise<Cached<RubricReport> | null | P> {
	// Not opened yet: nothing to compute, and nothing worth a cache row.
	if (!(await frozenRubric(db, studyId))) return null;
	const boot =
		opts.resamples >= 1 ? { resamples: opts.resamples, seed: opts.seed } : REPORT_BOOTSTRAP;
	return cached(
		db,
		'rubric',
		studyId,
		`resamples=${boot.resamples};seed=${boot.seed}`,
		() => rubricFingerprint(db, studyId),
		async () => {
			await reportPart(1, 2, "reading the score sheets and the judges' scores");
			const input = await studyJudgeInput(db, studyId);
			await reportPart(2, 2, resamplesPart('the rubric report', boot.resamples));
			return (await rubricReport(db, studyId, input, boot))!;
		},
		defer
	);
}

const bootOf = (opts: AgreementOptions, fallback: { resamples: number; seed: string }) =>
	opts.resamples >= 1 ? { resamples: opts.resamples, seed: opts.seed } : fallback;

/**
 * The pairwise report of a pairwise study (null when it has not opened), recomputed only when a
 * preference is submitted or the judges' preferences change.
 */
export async function cachedPairwiseReport<P = never>(
	db: Db,
	studyId: number,
	opts: AgreementOptions,
	defer?: Defer<P>
): Promise<Cached<PairwiseReport> | null | P> {
	if (!(await pairwiseForm(db, studyId))) return null;
	const boot = bootOf(opts, PAIRWISE_BOOTSTRAP);
	return cached(
		db,
		'pairwise',
		studyId,
		`resamples=${boot.resamples};seed=${boot.seed}`,
		() => pairwiseFingerprint(db, studyId),
		async () => {
			await reportPart(1, 1, resamplesPart('the pairwise report', boot.resamples));
			return (await pairwiseReport(db, studyId, boot))!;
		},
		defer
	);
}

/**
 * The evidence report of an evidence study, recomputed only when an assessment is finished. With
 * the dashboard's default seed (or 0 resamples) it takes the report's own bootstrap
 * (`evidence-<study id>`), so the page shows the numbers `evidenceReport` gives.
 */
export async function cachedEvidenceReport<P = never>(
	db: Db,
	studyId: number,
	opts: AgreementOptions & { defaultSeed?: string },
	defer?: Defer<P>
): Promise<Cached<EvidenceReport> | P> {
	const boot =
		opts.resamples >= 1 && opts.seed !== opts.defaultSeed
			? { resamples: opts.resamples, seed: opts.seed }
			: { resamples: opts.resamples >= 1 ? opts.resamples : 1000, seed: `evidence-${studyId}` };
	return cached(
		db,
		'evidence',
		studyId,
		`resamples=${boot.resamples};seed=${boot.seed}`,
		() => evidenceFingerprint(db, studyId),
		async () => {
			await reportPart(1, 1, resamplesPart('the evidence report', boot.resamples));
			return (await evidenceReport(db, studyId, boot))!;
		},
		defer
	);
}

/**
 * The Bradley–Terry leaderboards of a study (any design that gives battles) and of the other
 * studies sharing its questions, on the shared questions: recomputed when any study's judgements
 * change.
 */
export async function cachedLeaderboards<P = never>(
	db: Db,
	studyId: number,
	opts: AgreementOptions,
	defer?: Defer<P>
): Promise<Cached<{ own: ComparedLeaderboard[]; others: ComparedLeaderboard[] }> | P> {
	const boot = bootOf(opts, PAIRWISE_BOOTSTRAP);
	return cached(
		db,
		'leaderboards',
		studyId,
		`resamples=${boot.resamples};seed=${boot.seed}`,
		() => leaderboardFingerprint(db),
		async () => {
			await reportPart(1, 1, resamplesPart('the Bradley–Terry leaderboards', boot.resamples));
			return compareLeaderboards(db, studyId, boot);
		},
		defer
	);
}
