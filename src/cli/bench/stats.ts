import { performance } from 'node:perf_hooks';
import { migrateDatabase, openDatabase } from '$lib/server/db/client';
import {
	candidateScores,
	rankingJudgements,
	reviewJudgements,
	studyRuns,
	verificationOutcomes
} from '$lib/server/domain/agreement/extract';
import { verificationAgreement } from '$lib/server/domain/agreement/verification';
import { studyAgreement } from '$lib/server/domain/agreement/study';
import {
	cachedStudyAgreement,
	cachedVerificationAgreement
} from '$lib/server/domain/agreement/cache';
import { buildAgreementData } from '$lib/server/fixtures/agreement';
import type { Io } from '../io';
import { benchDatabase } from './database';

const ITEMS = 50_000;
const DOUBLE_SHARE = 0.45;
const QUESTIONS = 5_000;
const MODELS = 7; // + the reference = 8 answers per question
const PHYSICIANS = 3;
const RESAMPLES = 1_000;
const SEED = 'bench';
/**
 * What a page may wait for, with 1,000 resamples (and so without the bootstrap, or from the
 * cache): the verification report within 1 s, the study report within 2 s.
 */
const TARGET_S = { verification: 1, study: 2 };

async function timed<T>(job: () => Promise<T>): Promise<{ seconds: number; value: T }> {
	const start = performance.now();
	const value = await job();
	return { seconds: (performance.now() - start) / 1000, value };
}

const s = (seconds: number) => `${seconds.toFixed(2)} s`;

/**
 * Time of the agreement reports (verification and study, the dashboard's four functions) on
 * PostgreSQL at the scale of a full benchmark: 50,000 reviewed items with 45 % double-reviewed,
 * 5,000 questions × 8 answers × 3 physicians and a scoring run's scores. Each figure is printed
 * beside its floor (the bare extraction queries of the same report), their ratio, and the target
 * (TARGET_S): met or MISSED.
 */
export async function runStatsBench(io: Io): Promise<void> {
	io.stdout(
		`Agreement statistics (${ITEMS.toLocaleString('en')} items, ${DOUBLE_SHARE * 100} % double-reviewed; ${QUESTIONS.toLocaleString('en')} questions × ${MODELS + 1} answers × ${PHYSICIANS} physicians; PostgreSQL)`
	);
	const scratch = await benchDatabase(io, 'cliniq_bench_stats');
	if (!scratch) return;
	const handle = await openDatabase(scratch.url, { max: 4 });
	try {
		await migrateDatabase(handle);
		const db = handle.db;
		const built = await timed(() =>
			buildAgreementData(db, {
				items: ITEMS,
				doubleShare: DOUBLE_SHARE,
				questions: QUESTIONS,
				models: MODELS,
				physicians: PHYSICIANS
			})
		);
		const { datasetId, studyId } = built.value;
		io.stdout(`  stats: built the data with set-based SQL in ${s(built.seconds)}`);

		const report = async (
			name: string,
			target: number,
			extraction: () => Promise<unknown>,
			compute: (resamples: number) => Promise<unknown>,
			cached: (resamples: number) => Promise<{ fresh: boolean }>
		) => {
			// The floor: the report's extraction queries alone, one after the other.
			const floor = (await timed(extraction)).seconds;
			const line = (label: string, seconds: number) =>
				io.stdout(
					`  stats: ${name}, ${label}: ${s(seconds)} (floor ${s(floor)}, ${(seconds / floor).toFixed(1)} × the floor; target < ${target} s: ${seconds < target ? 'met' : 'MISSED'})`
				);
			io.stdout(`  stats: ${name}, floor (the extraction queries alone): ${s(floor)}`);
			line('no bootstrap', (await timed(() => compute(0))).seconds);
			line(
				`${RESAMPLES.toLocaleString('en')} resamples`,
				(await timed(() => compute(RESAMPLES))).seconds
			);
			const resamples = RESAMPLES;
			const first = await timed(() => cached(resamples));
			const second = await timed(() => cached(resamples));
			if (!first.value.fresh || second.value.fresh)
				throw new Error(`${name}: the cache did not compute once and then reuse`);
			const n = `${resamples.toLocaleString('en')} resamples`;
			line(`cached, first call (${n}: computed and stored)`, first.seconds);
			line(`cached, second call (${n}: fingerprint and read)`, second.seconds);
		};

		await report(
			'verification agreement',
			TARGET_S.verification,
			async () => {
				await reviewJudgements(db, datasetId);
				await verificationOutcomes(db, datasetId);
			},
			(resamples) => verificationAgreement(db, datasetId, { resamples, seed: SEED }),
			(resamples) => cachedVerificationAgreement(db, datasetId, { resamples, seed: SEED })
		);
		await report(
			'study agreement',
			TARGET_S.study,
			async () => {
				await rankingJudgements(db, studyId);
				const [run] = await studyRuns(db, studyId);
				await candidateScores(db, studyId, run.id);
			},
			(resamples) => studyAgreement(db, studyId, { resamples, seed: SEED }),
			(resamples) => cachedStudyAgreement(db, studyId, { resamples, seed: SEED })
		);
	} finally {
		await handle.close();
		await scratch.drop();
	}
}
