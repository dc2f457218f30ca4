import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { assignment, studyPhysician } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { parseCsv } from '../../csv';
import { EXPORT_COLUMNS, exportRankings, rankingsCsv } from './export';
import { studyProgress } from './progress';
import { claimNext, getAssignmentView } from './queue';
import { changeStudyState, createStudy } from './studies';
import { submitRanking } from './designs/ranking/rankings';

describeEachDb('ranking export and progress', (h) => {
	it('exports one row per ranked candidate with the model or "reference", and counts progress', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const [doctor, idle] = await insertUsers(h.db, 2, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, { count: 2, models: ['m-one', 'm-two'] });
		const study = await createStudy(
			h.db,
			{ name: 'Export, "quoted"', selection: { types: [] }, modelIds, ratersPerQuestion: 2 },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		const claim = await claimNext(h.db, study.id, doctor);
		if (claim.status !== 'assigned') throw new Error('expected an assignment');
		const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
		// Rank in reverse display order, so rank and display position differ.
		await submitRanking(h.db, doctor, {
			assignmentId: claim.publicId,
			idempotencyKey: 'export-key-1',
			timeOnTaskMs: 9000,
			entries: view.candidates.map((c, i) => ({
				candidateId: c.id,
				rank: view.candidates.length - i,
				tag: 'okay',
				comment: i === 0 ? 'line one,\nline "two"' : undefined
			}))
		});
		await claimNext(h.db, study.id, idle);

		const rows = await exportRankings(h.db, study.id);
		expect(rows).toHaveLength(3);
		expect(rows.map((r) => r.model).sort()).toEqual(['m-one', 'm-two', 'reference']);
		expect(rows.map((r) => [r.display_position, r.rank])).toEqual([
			[1, 3],
			[2, 2],
			[3, 1]
		]);
		expect(rows[0]).toMatchObject({
			physician: expect.stringMatching(/^P-/),
			time_on_task_ms: 9000
		});
		const csv = parseCsv(rankingsCsv(rows));
		expect(csv[0]).toEqual([...EXPORT_COLUMNS]);
		expect(csv[1][0]).toBe('Export, "quoted"');
		expect(csv[1][EXPORT_COLUMNS.indexOf('comment')]).toBe('line one,\nline "two"');

		// The presentation position and the physician's order seed travel with each row.
		const [seeded] = await h.db
			.select()
			.from(studyPhysician)
			.where(eq(studyPhysician.physicianId, doctor));
		expect(rows.every((r) => r.presentation_position === 1)).toBe(true);
		expect(rows.every((r) => r.order_seed === seeded.orderSeed)).toBe(true);
		expect(csv[1][EXPORT_COLUMNS.indexOf('order_seed')]).toBe(seeded.orderSeed);
		expect(csv[1][EXPORT_COLUMNS.indexOf('presentation_position')]).toBe('1');

		// Each physician follows their own question order: find where each one went.
		const questionOf = async (physician: string) =>
			(await h.db.select().from(assignment).where(eq(assignment.physicianId, physician)))[0]
				.studyQuestionId;
		const [ranked, leased] = [await questionOf(doctor), await questionOf(idle)];
		const progress = await studyProgress(h.db, study.id);
		expect(progress).toMatchObject({ submitted: 1, target: 4 });
		const counts = (id: number) => {
			const q = progress.questions.find((x) => x.questionId === id)!;
			return [q.submitted, q.leased, q.openSlots];
		};
		expect(progress.questions).toHaveLength(2);
		if (ranked === leased) expect(counts(ranked)).toEqual([1, 1, 0]);
		else
			expect([counts(ranked), counts(leased)]).toEqual([
				[1, 0, 1],
				[0, 1, 1]
			]);
		expect(progress.physicians).toEqual([
			expect.objectContaining({ submitted: 1, leased: 0, medianSeconds: 9 }),
			expect.objectContaining({ submitted: 0, leased: 1, medianSeconds: null })
		]);
		expect(progress.histogram.map((b) => b.value)).toEqual([1, 1, 0]);
		const untouched = progress.questions.find((q) => q.submitted === 0 && q.leased === 0);
		if (ranked === leased) expect(untouched?.openSlots).toBe(2);
	});
});
