import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	agreementBundle,
	comparedLeaderboardTables,
	dashboardReports,
	evidenceTables,
	readDashboardQuery,
	pairwiseTables,
	renderTable,
	rubricTables,
	studyTables,
	verificationTables
} from '$lib/server/domain/agreement';
import { isoDate } from '$lib/format';
import type { RequestHandler } from './$types';

function download(body: string | Uint8Array, file: string, type: string) {
	return new Response(body as BodyInit, {
		headers: {
			'content-type': type,
			'content-disposition': `attachment; filename="${file}"`,
			'cache-control': 'no-store'
		}
	});
}

// `<table>.csv`, `<table>.json` or `bundle.zip`, for the dataset and study of the query string.
export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const { verification, study, rubric, pairwise, evidence, leaderboards, query } =
		await dashboardReports(db, readDashboardQuery(url.searchParams));
	const suffix = [
		query.dataset && `dataset-${query.dataset}`,
		query.study && `study-${query.study}`
	]
		.filter(Boolean)
		.join('-');
	if (params.file === 'bundle.zip') {
		const zip = await agreementBundle(db, {
			verification: verification?.result ?? null,
			study: study?.result ?? null,
			rubric: rubric && query.study ? { studyId: query.study, report: rubric.result } : null,
			pairwise: pairwise && query.study ? { studyId: query.study, report: pairwise.result } : null,
			evidence: evidence && query.study ? { studyId: query.study, report: evidence.result } : null,
			leaderboards: leaderboards?.result ?? null
		});
		return download(zip, `agreement-${suffix}-${isoDate()}.zip`, 'application/zip');
	}
	const match = /^([a-z_]+)\.(csv|json)$/.exec(params.file);
	if (!match) error(404, 'Exports are <table>.csv, <table>.json and bundle.zip.');
	const tables = {
		...(verification ? verificationTables(verification.result) : {}),
		...(study ? studyTables(study.result) : {}),
		...(rubric ? rubricTables(rubric.result) : {}),
		...(pairwise ? pairwiseTables(pairwise.result) : {}),
		...(evidence ? evidenceTables(evidence.result) : {}),
		...(leaderboards?.result.own.length ? comparedLeaderboardTables(leaderboards.result) : {})
	};
	const table = Object.hasOwn(tables, match[1]) ? tables[match[1]] : undefined;
	if (!table) error(404, `There is no table "${match[1]}" for this dataset and study.`);
	const format = match[2] as 'csv' | 'json';
	return download(
		renderTable(table, format),
		`${match[1]}-${suffix}.${format}`,
		format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json'
	);
};
