import { DomainError } from '../../errors';
import { count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { candidate, studyQuestion } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { changeStudyState, checkEligibility, createStudy, getStudy, listStudies } from './studies';

describeEachDb('ranking studies', (h) => {
	let organiser: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
	});

	it('only items answered by every chosen model are eligible; the rest are reported', async () => {
		const { itemIds, modelIds } = await seedRankingContent(h.db, {
			count: 4,
			models: ['alpha', 'beta', 'gamma'],
			skip: [
				{ item: 1, model: 'beta' },
				{ item: 3, model: 'beta' },
				{ item: 3, model: 'gamma' }
			]
		});
		const all = await checkEligibility(h.db, { types: [] }, modelIds);
		expect(all.eligible.map((e) => e.itemId)).toEqual([itemIds[0], itemIds[2]]);
		expect(all.missing).toEqual([
			expect.objectContaining({ itemId: itemIds[1], models: ['beta'] }),
			expect.objectContaining({ itemId: itemIds[3], models: ['beta', 'gamma'] })
		]);
		expect(all.missing[0].question).toMatch(/\?|\./);
		// Without beta, only item 3 (also lacking gamma) stays ineligible.
		const noBeta = await checkEligibility(h.db, { types: [] }, [modelIds[0], modelIds[2]]);
		expect(noBeta.eligible).toHaveLength(3);
	});

	it('selects by type and by explicit list', async () => {
		const { itemIds, modelIds } = await seedRankingContent(h.db, {
			count: 6,
			models: ['alpha'],
			types: ['short_answer', 'short_inverse', 'multi_hop']
		});
		const inverse = await checkEligibility(h.db, { types: ['short_inverse'] }, modelIds);
		expect(inverse.eligible.map((e) => e.itemId)).toEqual([itemIds[1], itemIds[4]]);
		const listed = await checkEligibility(
			h.db,
			{ types: [], itemIds: [itemIds[5], itemIds[0]] },
			modelIds
		);
		expect(listed.eligible.map((e) => e.itemId)).toEqual([itemIds[0], itemIds[5]]);
	});

	it('freezes questions and candidates (models plus the reference) when opened', async () => {
		const { modelIds } = await seedRankingContent(h.db, {
			count: 3,
			models: ['alpha', 'beta'],
			types: ['short_inverse'],
			skip: [{ item: 2, model: 'alpha' }]
		});
		const study = await createStudy(
			h.db,
			{ name: 'S1', selection: { types: [] }, modelIds },
			organiser
		);
		expect(study).toMatchObject({
			state: 'draft',
			includeReference: true,
			ratersPerQuestion: 3,
			allowTies: false
		});
		await changeStudyState(h.db, study.id, 'open', organiser);
		const questions = await h.db
			.select()
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, study.id));
		expect(questions).toHaveLength(2);
		expect(questions.every((q) => q.openSlots === 3)).toBe(true);
		const cands = await h.db.select().from(candidate);
		expect(cands).toHaveLength(6);
		const refs = cands.filter((c) => c.isReference);
		expect(refs).toHaveLength(2);
		// For inverse items the reference is the gold explanation.
		expect(refs[0].text.length).toBeGreaterThan(10);
		expect(refs.every((r) => r.modelId === null)).toBe(true);
		expect((await getStudy(h.db, study.id))!.questions).toBe(2);
		expect((await listStudies(h.db))[0]).toMatchObject({ id: study.id, questions: 2 });
	});

	it('leaves the reference out when asked and follows the state machine', async () => {
		const { modelIds } = await seedRankingContent(h.db, { count: 2, models: ['alpha'] });
		const study = await createStudy(
			h.db,
			{
				name: 'S2',
				selection: { types: [] },
				modelIds,
				includeReference: false,
				ratersPerQuestion: 2,
				allowTies: true
			},
			organiser
		);
		await expect(changeStudyState(h.db, study.id, 'pause', organiser)).rejects.toThrow(DomainError);
		await changeStudyState(h.db, study.id, 'open', organiser);
		await changeStudyState(h.db, study.id, 'pause', organiser);
		const reopened = await changeStudyState(h.db, study.id, 'open', organiser);
		expect(reopened.state).toBe('open');
		const [{ n }] = await h.db.select({ n: count() }).from(candidate);
		expect(n).toBe(2); // frozen once: re-opening does not add candidates
		const closed = await changeStudyState(h.db, study.id, 'close', organiser);
		expect(closed.closedAt).not.toBeNull();
		await expect(changeStudyState(h.db, study.id, 'open', organiser)).rejects.toThrow(/closed/);
	});

	it('refuses a duplicate name, no models, and opening with nothing eligible', async () => {
		const { modelIds } = await seedRankingContent(h.db, {
			count: 2,
			models: ['alpha', 'beta'],
			skip: [
				{ item: 0, model: 'alpha' },
				{ item: 1, model: 'beta' }
			]
		});
		const s = await createStudy(
			h.db,
			{ name: 'Same', selection: { types: [] }, modelIds },
			organiser
		);
		await expect(
			createStudy(h.db, { name: 'Same', selection: { types: [] }, modelIds }, organiser)
		).rejects.toThrow(/already exists/);
		await expect(
			createStudy(h.db, { name: 'Other', selection: { types: [] }, modelIds: [] }, organiser)
		).rejects.toThrow();
		await expect(changeStudyState(h.db, s.id, 'open', organiser)).rejects.toThrow(/No eligible/);
	});
});
