import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { getRun, runScores, scoresCsv, UNRECORDED_CORPUS } from '$lib/server/domain/scoring-runs';
import type { RequestHandler } from './$types';

const formatSchema = z.enum(['csv', 'json']);

/** Per-response scores of a finished run as a CSV or JSON download; every row names the run's mode. */
export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const format = formatSchema.safeParse(url.searchParams.get('format') ?? 'csv');
	if (!format.success) error(400, 'format must be csv or json.');
	const db = getDb();
	const run = await getRun(db, Number(params.id));
	if (!run) error(404, `There is no scoring run ${params.id}.`);
	if (run.state !== 'done')
		error(409, `Run ${run.id} is ${run.state}; scores exist once it is done.`);
	const rows = await runScores(db, run.id);
	const name = `scores-run${run.id}-${run.mode}-${run.embedder.replace(':', '')}`;
	if (format.data === 'csv') {
		return new Response(scoresCsv(run, rows), {
			headers: {
				'content-type': 'text/csv; charset=utf-8',
				'content-disposition': `attachment; filename="${name}.csv"`
			}
		});
	}
	const body = {
		run: {
			id: run.id,
			mode: run.mode,
			embedder: run.embedder,
			scorerVersion: run.scorerVersion,
			baseline: run.baseline,
			baselineSeed: run.summary?.baselineSeed ?? null,
			idfCorpusSize: run.idfCorpusSize,
			corpus: run.corpus
				? {
						kind: run.corpus.kind,
						snapshot: run.corpus.snapshotName,
						itemVersions: run.corpus.size,
						recordedAt: run.corpus.recordedAt,
						digest: run.corpus.digest,
						label: run.corpus.label
					}
				: { label: UNRECORDED_CORPUS },
			rerunOf: run.rerunOf,
			finishedAt: run.finishedAt
		},
		leaderboard: run.summary?.models.map((m) => ({ model: m.name, ...m.leaderboard })) ?? [],
		scores: rows.map((r) => ({
			mode: run.mode,
			embedder: run.embedder,
			scorerVersion: run.scorerVersion,
			...r
		}))
	};
	return new Response(JSON.stringify(body, null, 1), {
		headers: {
			'content-type': 'application/json; charset=utf-8',
			'content-disposition': `attachment; filename="${name}.json"`
		}
	});
};
