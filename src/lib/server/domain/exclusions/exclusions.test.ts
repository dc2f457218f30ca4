// Exclusions against every figure: excluding a rater takes exactly their judgements out of each
// design's statistics and exports (compared with figures computed from the remaining judgements),
// the counts say so, revoking restores the figures exactly, a day range takes out only that day,
// questions below k reopen for others, gold questions never count, and qualification rounds stay
// out of the compared leaderboards.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rowsOf, type Db } from '../../db/client';
import { assignment, auditEvent, exclusion, study, studyQuestion, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { seedScoredRubricStudy } from '../../fixtures/rubric-scored';
import { seedJudgedPairwiseStudy } from '../../fixtures/pairwise-report';
import { seedAssessedEvidenceStudy } from '../../fixtures/evidence';
import { DomainError } from '../../errors';
import {
	battlesCsv,
	changeStudyState,
	claimNext,
	compareLeaderboards,
	createStudy,
	evidenceReport,
	exportEvidenceOfficial,
	exportPairwiseJudgements,
	exportRankings,
	exportRubricScores,
	finishedAssessments,
	getAssignmentView,
	pairwiseReport,
	preferenceRows,
	rubricReport,
	rubricScoreRows,
	studyConfiguration,
	submitRanking
} from '../studies';
import { rankingStudyBattles } from '../studies/designs/ranking/battles';
import { modelJudgements } from '../studies/progress';
import { rankingJudgements, studyAgreement } from '../agreement';
import { studyFingerprint } from '../agreement/extract';
import { btLeaderboard } from '../../../stats/bradley-terry';
import { preferenceBattles } from '../../../stats/preference';
import { modelMeans } from '../../../stats/rubric';
import {
	dayRange,
	excludeJudgements,
	excludedCounts,
	excludedSentence,
	listExclusions,
	revokeExclusion
} from '.';

const BOOT = { resamples: 20, seed: 'exclusions' };

async function pseudonymOf(db: Db, id: string) {
	const [u] = await db.select({ p: user.pseudonym }).from(user).where(eq(user.id, id));
	return u.p;
}

/**
 * A ranking study of `questions` items × 3 models (no reference), k = 3, ranked completely by three
 * physicians (physician p ranks the answer shown at position i as (i + p) mod 3 + 1).
 */
async function rankedStudy(db: Db, questions = 4, name = 'Ranked') {
	const [organiser] = await insertUsers(db, 1, ['organiser']);
	const physicians = await insertUsers(db, 3, ['physician']);
	const { modelIds } = await seedRankingContent(db, {
		count: questions,
		models: ['m1', 'm2', 'm3']
	});
	const s = await createStudy(
		db,
		{ name, selection: { types: [] }, modelIds, includeReference: false, ratersPerQuestion: 3 },
		organiser
	);
	await changeStudyState(db, s.id, 'open', organiser, { confirm: true });
	for (const [p, physician] of physicians.entries()) await rankAll(db, s.id, physician, p);
	return { studyId: s.id, organiser, physicians, modelIds };
}

async function rankAll(db: Db, studyId: number, physician: string, p: number) {
	for (;;) {
		const c = await claimNext(db, studyId, physician);
		if (c.status !== 'assigned') return;
		const view = (await getAssignmentView(db, c.publicId, physician))!;
		await submitRanking(db, physician, {
			assignmentId: c.publicId,
			idempotencyKey: `k-${c.publicId}`,
			timeOnTaskMs: 1000,
			entries: view.candidates.map((x, i) => ({
				candidateId: x.id,
				rank: ((i + p) % 3) + 1,
				tag: (i + p) % 3 === 0 ? 'good' : 'okay',
				comment: ''
			}))
		});
	}
}

const slots = async (db: Db, studyId: number) =>
	(
		await db
			.select({ id: studyQuestion.id, open: studyQuestion.openSlots })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId))
			.orderBy(asc(studyQuestion.id))
	).map((q) => q.open);

describeEachDb('exclusions', (h) => {
	it('ranking: excluding a rater takes exactly their rankings out of statistics, battles and exports, audited; revoking restores them', async () => {
		const { studyId, organiser, physicians } = await rankedStudy(h.db);
		const [x] = physicians;
		const px = await pseudonymOf(h.db, x);
		const before = {
			rows: await rankingJudgements(h.db, studyId),
			exported: await exportRankings(h.db, studyId),
			battles: await rankingStudyBattles(h.db, studyId),
			tags: await modelJudgements(h.db, studyId),
			agreement: await studyAgreement(h.db, studyId, { ...BOOT, runId: null }),
			fingerprint: await studyFingerprint(h.db, studyId, null)
		};
		expect(before.agreement.excluded.judgements).toBe(0);

		const { exclusion: made } = await excludeJudgements(
			h.db,
			{ raterId: x, studyId: null, from: null, until: null, reason: 'Ranked at random' },
			organiser
		);
		const rows = await rankingJudgements(h.db, studyId);
		expect(rows).toEqual(before.rows.filter((r) => r.rater !== px));
		expect(await exportRankings(h.db, studyId)).toEqual(
			before.exported.filter((r) => r.physician !== px)
		);
		// Battles: the two remaining physicians' rankings only (3 pairs per ranking).
		const [battles] = await rankingStudyBattles(h.db, studyId);
		expect(battles.battles).toHaveLength(before.battles[0].battles.length - 4 * 3);
		const tags = await modelJudgements(h.db, studyId);
		expect(tags.reduce((n, m) => n + m.answers, 0)).toBe(rows.length);
		const agreement = await studyAgreement(h.db, studyId, { ...BOOT, runId: null });
		expect(agreement.inputs).toMatchObject({ physicians: 2, rankings: 8, entries: rows.length });
		const counts = await excludedCounts(h.db, studyId);
		expect(counts).toEqual({
			judgements: 4,
			raters: 1,
			bySource: { organiser: 4, withdrawal: 0 },
			reasons: ['Ranked at random']
		});
		expect(agreement.excluded).toEqual(counts);
		expect(excludedSentence(counts)).toBe(
			'4 judgements of 1 rater excluded (reasons: Ranked at random).'
		);
		expect((await studyConfiguration(h.db, studyId))!.excluded_judgements.judgements).toBe(4);
		const fingerprint = await studyFingerprint(h.db, studyId, null);
		expect(fingerprint).not.toBe(before.fingerprint);
		const [listed] = await listExclusions(h.db, { raterId: x });
		expect(listed).toMatchObject({ id: made.id, judgements: 4, revokedAt: null });

		await revokeExclusion(h.db, made.id, organiser, { reason: 'Checked: fine' });
		expect(await rankingJudgements(h.db, studyId)).toEqual(before.rows);
		expect(await exportRankings(h.db, studyId)).toEqual(before.exported);
		expect(await rankingStudyBattles(h.db, studyId)).toEqual(before.battles);
		expect(await modelJudgements(h.db, studyId)).toEqual(before.tags);
		expect(await studyAgreement(h.db, studyId, { ...BOOT, runId: null })).toEqual(before.agreement);
		expect(await studyFingerprint(h.db, studyId, null)).not.toBe(fingerprint);
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.objectType, 'exclusion'))
			.orderBy(asc(auditEvent.id));
		expect(events.map((e) => e.action)).toEqual(['exclusion.create', 'exclusion.revoke']);
		expect(events[1].before).toMatchObject({ revokedAt: null, reason: 'Ranked at random' });
		expect(events[1].after).toMatchObject({ revokedBy: organiser, revokeReason: 'Checked: fine' });
		await expect(revokeExclusion(h.db, made.id, organiser)).rejects.toBeInstanceOf(DomainError);
	});

	it('refuses an exclusion without a reason or with an empty range, and changes nothing', async () => {
		const { organiser, physicians } = await rankedStudy(h.db, 1);
		const base = { raterId: physicians[0], studyId: null, from: null, until: null };
		await expect(excludeJudgements(h.db, { ...base, reason: ' ' }, organiser)).rejects.toThrow(
			/Say why/
		);
		const day = new Date('2026-01-10T00:00:00Z');
		await expect(
			excludeJudgements(h.db, { ...base, from: day, until: day, reason: 'r' }, organiser)
		).rejects.toThrow(/end after/);
		expect(await h.db.select().from(exclusion)).toEqual([]);
	});

	it('a day range takes out only the judgements submitted that day (UTC)', async () => {
		const { studyId, organiser, physicians } = await rankedStudy(h.db);
		const [x] = physicians;
		const px = await pseudonymOf(h.db, x);
		// The rater's first two rankings on 10 January, the other two on 11 January.
		const mine = await h.db
			.select({ id: assignment.id, question: assignment.studyQuestionId })
			.from(assignment)
			.where(eq(assignment.physicianId, x))
			.orderBy(asc(assignment.id));
		for (const [i, a] of mine.entries()) {
			const at = i < 2 ? '2026-01-10T23:59:00Z' : '2026-01-11T00:00:00Z';
			await h.db.execute(sql`update assignment set submitted_at = ${at} where id = ${a.id}`);
			await h.db.execute(
				sql`update ranking set submitted_at = ${at} where assignment_id = ${a.id}`
			);
		}
		const before = await rankingJudgements(h.db, studyId);
		await excludeJudgements(
			h.db,
			{ raterId: x, studyId, ...dayRange('2026-01-10', '2026-01-10'), reason: 'Tired that day' },
			organiser
		);
		const gone = new Set(mine.slice(0, 2).map((a) => a.question));
		expect(await rankingJudgements(h.db, studyId)).toEqual(
			before.filter((r) => r.rater !== px || !gone.has(r.question))
		);
		expect(await excludedCounts(h.db, studyId)).toMatchObject({ judgements: 2, raters: 1 });
	});

	it('honours a withdrawal’s exclusion row exactly like an organiser’s', async () => {
		const { studyId, organiser, physicians } = await rankedStudy(h.db, 2);
		const px = await pseudonymOf(h.db, physicians[2]);
		const before = await rankingJudgements(h.db, studyId);
		// As the consent feature writes it, without this module.
		await h.db.insert(exclusion).values({
			raterId: physicians[2],
			studyId,
			reason: 'Withdrew from the study',
			source: 'withdrawal',
			createdBy: organiser
		});
		expect(await rankingJudgements(h.db, studyId)).toEqual(before.filter((r) => r.rater !== px));
		expect(await excludedCounts(h.db, studyId)).toEqual({
			judgements: 2,
			raters: 1,
			bySource: { organiser: 0, withdrawal: 2 },
			reasons: ['Withdrew from the study']
		});
	});

	it('reopens the questions that fell below k for another rater, and closes them again on revoking', async () => {
		const { studyId, organiser, physicians } = await rankedStudy(h.db, 3);
		const [late] = await insertUsers(h.db, 1, ['physician']);
		expect(await slots(h.db, studyId)).toEqual([0, 0, 0]);
		expect((await claimNext(h.db, studyId, late)).status).toBe('none');

		const { exclusion: made, questionsChanged } = await excludeJudgements(
			h.db,
			{ raterId: physicians[1], studyId, from: null, until: null, reason: 'Did not read' },
			organiser
		);
		expect(questionsChanged).toBe(3);
		expect(await slots(h.db, studyId)).toEqual([1, 1, 1]);
		// The excluded rater is not given their questions again; another rater is.
		expect((await claimNext(h.db, studyId, physicians[1])).status).toBe('none');
		const claim = await claimNext(h.db, studyId, late);
		expect(claim.status).toBe('assigned');
		expect(await slots(h.db, studyId)).toEqual(expect.arrayContaining([0, 1, 1]));

		await revokeExclusion(h.db, made.id, organiser);
		// Three counting judgements each again; the late rater's lease keeps its question at 0 too.
		expect(await slots(h.db, studyId)).toEqual([0, 0, 0]);
		const again = await claimNext(h.db, studyId, late);
		expect(again).toMatchObject({ status: 'assigned', resumed: true });
	});

	it('gold questions never appear in any statistic or export; qualification rounds never in compared leaderboards', async () => {
		const { studyId, organiser, physicians, modelIds } = await rankedStudy(h.db, 3);
		const other = await createStudy(
			h.db,
			{
				name: 'Same questions',
				selection: { types: [] },
				modelIds,
				includeReference: false,
				ratersPerQuestion: 1
			},
			organiser,
			{ confirm: true }
		);
		await changeStudyState(h.db, other.id, 'open', organiser, { confirm: true });
		await rankAll(h.db, other.id, physicians[0], 0);
		expect((await compareLeaderboards(h.db, studyId, BOOT)).others).toHaveLength(1);
		await h.db.update(study).set({ purpose: 'qualification' }).where(eq(study.id, other.id));
		expect((await compareLeaderboards(h.db, studyId, BOOT)).others).toEqual([]);

		const [gold] = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId))
			.orderBy(asc(studyQuestion.id))
			.limit(1);
		const before = await rankingJudgements(h.db, studyId);
		const fingerprint = await studyFingerprint(h.db, studyId, null);
		await h.db.update(studyQuestion).set({ gold: true }).where(eq(studyQuestion.id, gold.id));
		expect(await studyFingerprint(h.db, studyId, null)).not.toBe(fingerprint);
		const rows = await rankingJudgements(h.db, studyId);
		expect(rows).toEqual(before.filter((r) => r.question !== gold.id));
		expect((await exportRankings(h.db, studyId)).some((r) => r.question_id === gold.id)).toBe(
			false
		);
		const [battles] = await rankingStudyBattles(h.db, studyId);
		expect(battles.battles).toHaveLength(2 * 3 * 3);
		const tags = await modelJudgements(h.db, studyId);
		expect(tags.reduce((n, m) => n + m.answers, 0)).toBe(rows.length);
		const agreement = await studyAgreement(h.db, studyId, { ...BOOT, runId: null });
		expect(agreement.inputs.questions).toBe(2);
		// Gold judgements are simply absent, not counted as excluded.
		expect(agreement.excluded.judgements).toBe(0);
	});

	it('rubric: excluding a rater removes exactly their score sheets from the report and the export; revoking restores the report', async () => {
		const { studyId, organiser, physicians } = await seedScoredRubricStudy(h.db, 3);
		const [, x] = physicians;
		const before = {
			rows: await rubricScoreRows(h.db, studyId),
			report: await rubricReport(h.db, studyId, undefined, BOOT),
			exported: await exportRubricScores(h.db, studyId)
		};
		const { exclusion: made } = await excludeJudgements(
			h.db,
			{ raterId: x, studyId: null, from: null, until: null, reason: 'Scored without reading' },
			organiser
		);
		const rows = await rubricScoreRows(h.db, studyId);
		const remaining = before.rows.filter((r) => r.rater !== x);
		// The slots are renumbered over the remaining judgements: one sheet per question, slot 1.
		const key = (r: (typeof rows)[number]) => `${r.question}:${r.candidate}:${r.subAspect}`;
		const sorted = (list: typeof rows) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
		expect(sorted(rows)).toEqual(sorted(remaining.map((r) => ({ ...r, slot: 1 }))));
		const report = (await rubricReport(h.db, studyId, undefined, BOOT))!;
		expect(report.models).toEqual(modelMeans(rows, report.shape, BOOT));
		expect(report.sheets).toBe(3);
		expect(report.excluded).toMatchObject({ judgements: 3, raters: 1 });
		const px = await pseudonymOf(h.db, x);
		const exported = await exportRubricScores(h.db, studyId);
		expect(exported).toEqual(before.exported.filter((r) => r.physician !== px));

		await revokeExclusion(h.db, made.id, organiser);
		expect(await rubricReport(h.db, studyId, undefined, BOOT)).toEqual(before.report);
		expect(await exportRubricScores(h.db, studyId)).toEqual(before.exported);

		const [gold] = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId))
			.limit(1);
		await h.db.update(studyQuestion).set({ gold: true }).where(eq(studyQuestion.id, gold.id));
		expect((await rubricScoreRows(h.db, studyId)).some((r) => r.question === String(gold.id))).toBe(
			false
		);
		expect((await exportRubricScores(h.db, studyId)).some((r) => r.question_id === gold.id)).toBe(
			false
		);
	});

	it('pairwise: excluding a rater removes exactly their preferences from the leaderboard, battles and export; revoking restores them', async () => {
		const { studyId, organiser, physicians } = await seedJudgedPairwiseStudy(h.db, {
			questions: 3
		});
		const [x] = physicians;
		const px = await pseudonymOf(h.db, x);
		const before = {
			rows: await preferenceRows(h.db, studyId),
			report: await pairwiseReport(h.db, studyId, BOOT),
			exported: await exportPairwiseJudgements(h.db, studyId)
		};
		const { exclusion: made } = await excludeJudgements(
			h.db,
			{ raterId: x, studyId, from: null, until: null, reason: 'Always chose left' },
			organiser
		);
		const rows = await preferenceRows(h.db, studyId);
		expect(rows).toEqual(before.rows.filter((r) => r.rater !== px));
		const report = (await pairwiseReport(h.db, studyId, BOOT))!;
		expect(report.judgements).toBe(rows.length);
		expect(report.physicians).toBe(1);
		expect(report.leaderboard).toEqual(btLeaderboard(preferenceBattles(rows), BOOT));
		expect(report.excluded).toMatchObject({ judgements: before.rows.length - rows.length });
		const exported = await exportPairwiseJudgements(h.db, studyId);
		expect(exported).toEqual(before.exported.filter((r) => r.physician !== px));
		expect(battlesCsv(exported).trim().split('\n')).toHaveLength(rows.length + 1);

		await revokeExclusion(h.db, made.id, organiser);
		expect(await pairwiseReport(h.db, studyId, BOOT)).toEqual(before.report);
		expect(await exportPairwiseJudgements(h.db, studyId)).toEqual(before.exported);

		const [gold] = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId))
			.limit(1);
		await h.db.update(studyQuestion).set({ gold: true }).where(eq(studyQuestion.id, gold.id));
		const goldIds = rowsOf<{ id: number }>(
			await h.db.execute(
				sql`select j.id from pairwise_judgement j join assignment a on a.id = j.assignment_id
					where a.study_question_id = ${gold.id}`
			)
		).map((r) => Number(r.id));
		expect(goldIds.length).toBeGreaterThan(0);
		expect((await preferenceRows(h.db, studyId)).some((r) => goldIds.includes(r.judgementId))).toBe(
			false
		);
		expect(await exportPairwiseJudgements(h.db, studyId)).toHaveLength(
			before.exported.length - goldIds.length
		);
	});

	it('evidence: excluding an assessor removes their assessments from the figures and the official file; revoking restores them', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const assessors = (await insertUsers(h.db, 2, ['physician'])) as [string, string];
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			questions: 2,
			runs: ['run-a', 'run-b']
		});
		const [, x] = assessors;
		const px = await pseudonymOf(h.db, x);
		const before = {
			assessments: await finishedAssessments(h.db, studyId),
			report: await evidenceReport(h.db, studyId, BOOT),
			official: await exportEvidenceOfficial(h.db, studyId)
		};
		const { exclusion: made } = await excludeJudgements(
			h.db,
			{ raterId: x, studyId: null, from: null, until: null, reason: 'Not an assessor' },
			organiser
		);
		const assessments = await finishedAssessments(h.db, studyId);
		// The remaining assessor's assessments, each now its answer's first.
		expect(assessments).toEqual(
			before.assessments.filter((a) => a.assessor !== px).map((a) => ({ ...a, order: 1 }))
		);
		const report = (await evidenceReport(h.db, studyId, BOOT))!;
		expect(report.counts).toMatchObject({ assessed: 4, doubleAssessed: 0 });
		expect(report.excluded).toMatchObject({ judgements: 4, raters: 1 });
		// The official file now holds the remaining assessor's assessment of every answer.
		const official = await exportEvidenceOfficial(h.db, studyId);
		expect(official).not.toEqual(before.official);

		await revokeExclusion(h.db, made.id, organiser);
		expect(await evidenceReport(h.db, studyId, BOOT)).toEqual(before.report);
		expect(await exportEvidenceOfficial(h.db, studyId)).toEqual(before.official);

		const units = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(and(eq(studyQuestion.studyId, studyId), sql`${studyQuestion.unit} > 0`))
			.orderBy(asc(studyQuestion.id));
		await h.db
			.update(studyQuestion)
			.set({ gold: true })
			.where(inArray(studyQuestion.id, [units[0].id]));
		const left = await finishedAssessments(h.db, studyId);
		expect(left.some((a) => a.unitId === units[0].id)).toBe(false);
		expect(left).toHaveLength(before.assessments.length - 2);
		expect((await evidenceReport(h.db, studyId, BOOT))!.counts.answers).toBe(3);
	});
});
