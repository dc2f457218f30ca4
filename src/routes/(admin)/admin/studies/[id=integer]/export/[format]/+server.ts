import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	battlesCsv,
	evidenceLongCsv,
	exportBlindingAudit,
	exportEvidenceLong,
	exportEvidenceOfficial,
	exportPairwiseJudgements,
	exportRankings,
	exportRubricScores,
	getStudy,
	pairwiseJudgementsCsv,
	rankingsCsv,
	rubricScoresCsv,
	studyConfiguration
} from '$lib/server/domain/studies';
import type { RequestHandler } from './$types';

/**
 * The judgements as a long table (CSV or JSON; the study's design decides the columns), a
 * pairwise study's battles (CSV in FastChat's columns, for `cliniq stats bt`), an evidence
 * study's assessments in the official TREC BioGen layout (JSON, for `cliniq stats evidence`), the study's
 * configuration (JSON: design, questions' source, rubric version, seeds' roles), or the blinding
 * audit (JSON).
 */
const formatSchema = z.enum(['csv', 'json', 'battles', 'biogen', 'config', 'blinding']);

export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const format = formatSchema.safeParse(params.format);
	if (!format.success)
		error(404, 'Export formats are csv, json, battles, biogen, config and blinding.');
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	if (format.data === 'blinding') {
		const audit = await exportBlindingAudit(db, study.id);
		if (!audit) error(409, 'A draft study has no frozen answers to audit yet.');
		return new Response(JSON.stringify(audit, null, 1), {
			headers: {
				'content-type': 'application/json',
				'content-disposition': `attachment; filename="study-${study.id}-blinding-audit.json"`,
				'cache-control': 'no-store'
			}
		});
	}
	if (format.data === 'config') {
		return new Response(JSON.stringify(await studyConfiguration(db, study.id), null, 1), {
			headers: {
				'content-type': 'application/json',
				'content-disposition': `attachment; filename="study-${study.id}-configuration.json"`,
				'cache-control': 'no-store'
			}
		});
	}
	if (format.data === 'battles' && study.design !== 'pairwise')
		error(404, 'Only a pairwise study exports battles.');
	if (format.data === 'biogen') {
		if (study.design !== 'evidence')
			error(404, 'Only an evidence study exports BioGen assessments.');
		return new Response(JSON.stringify(await exportEvidenceOfficial(db, study.id), null, 1), {
			headers: {
				'content-type': 'application/json',
				'content-disposition': `attachment; filename="study-${study.id}-biogen-assessments.json"`,
				'cache-control': 'no-store'
			}
		});
	}
	let body: string;
	let file: string;
	if (study.design === 'pairwise') {
		const rows = await exportPairwiseJudgements(db, study.id);
		const kind = format.data === 'battles' ? 'battles' : 'judgements';
		file = `study-${study.id}-${kind}.${format.data === 'json' ? 'json' : 'csv'}`;
		body =
			format.data === 'battles'
				? battlesCsv(rows)
				: format.data === 'csv'
					? pairwiseJudgementsCsv(rows)
					: JSON.stringify(rows, null, 1);
	} else if (study.design === 'evidence') {
		const rows = await exportEvidenceLong(db, study.id);
		file = `study-${study.id}-assessments.${format.data}`;
		body = format.data === 'csv' ? evidenceLongCsv(rows) : JSON.stringify(rows, null, 1);
	} else if (study.design === 'rubric') {
		const rows = await exportRubricScores(db, study.id);
		file = `study-${study.id}-scores.${format.data}`;
		body = format.data === 'csv' ? rubricScoresCsv(rows) : JSON.stringify(rows, null, 1);
	} else {
		const rows = await exportRankings(db, study.id);
		file = `study-${study.id}-rankings.${format.data}`;
		body = format.data === 'csv' ? rankingsCsv(rows) : JSON.stringify(rows, null, 1);
	}
	return new Response(body, {
		headers: {
			'content-type': format.data === 'json' ? 'application/json' : 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${file}"`,
			'cache-control': 'no-store'
		}
	});
};
