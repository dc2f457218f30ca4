import { DomainError } from '../../errors';
import { and, count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, candidate, study as studyTable, studyQuestion, user } from '../../db/schema';
import { createInvitation } from '../people/users';
import { describeEachDb } from '../../db/testing';
import { seedEvidenceSet } from '../../fixtures/evidence';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import {
	changeStudyState,
	checkEligibility,
	createStudy,
	getStudy,
	listModelsWithCounts,
	listStudies
} from './studies';

describeEachDb('ranking studies', (h) => {
	let organiser: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		// Enough physicians for the default k = 3; the physician checks have their own tests.
		await insertUsers(h.db, 3, ['physician']);
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

	it('counts each model’s answers to QA items and to question sets for the form', async () => {
		await seedRankingContent(h.db, {
			count: 3,
			models: ['alpha', 'beta'],
			skip: [{ item: 0, model: 'beta' }]
		});
		await seedEvidenceSet(h.db, { questions: 2, runs: ['run-x'] });
		const counts = (await listModelsWithCounts(h.db)).map((m) => [
			m.name,
			m.responses,
			m.setResponses
		]);
		expect(counts).toEqual([
			['alpha', 3, 0],
			['beta', 2, 0],
			['run-x', 0, 2]
		]);
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

describeEachDb('a study that cannot finish is refused before it opens', (h) => {
	let organiser: string;
	let modelIds: number[];
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		({ modelIds } = await seedRankingContent(h.db, { count: 2, models: ['alpha'] }));
	});
	const input = (name: string, k: number) => ({
		name,
		selection: { types: [] },
		modelIds,
		ratersPerQuestion: k
	});
	const refusal = async (p: Promise<unknown>) => {
		const e = await p.then(
			() => null,
			(err: unknown) => err
		);
		expect(e).toBeInstanceOf(DomainError);
		return e as DomainError;
	};
	const invite = (email: string, validHours = 72) =>
		createInvitation(
			h.db,
			{ email, displayName: email, roles: ['physician'], validHours },
			organiser
		);
	const auditOf = async (action: string) => {
		const [row] = await h.db.select().from(auditEvent).where(eq(auditEvent.action, action));
		return row.after as Record<string, unknown>;
	};

	it('refuses to create a study with fewer physicians than k, saying why and what to do', async () => {
		await insertUsers(h.db, 2, ['physician']);
		// A disabled physician and an organiser without the role do not count.
		const [gone] = await insertUsers(h.db, 1, ['physician']);
		await h.db.update(user).set({ disabledAt: new Date() }).where(eq(user.id, gone));
		const e = await refusal(createStudy(h.db, input('K3', 3), organiser, { confirm: true }));
		expect(e.code).toBe('invalid');
		expect(e.message).toBe(
			'This study asks for 3 physicians per question but only 2 physician accounts exist; invite 1 more or lower k.'
		);
		expect(await h.db.select().from(studyTable)).toEqual([]);
		// k = 2 with two physicians is fine and needs no confirmation.
		const ok = await createStudy(h.db, input('K2', 2), organiser);
		expect((await auditOf('study.create')).confirmedWarnings).toBeUndefined();
		expect(ok.ratersPerQuestion).toBe(2);
	});

	it('refuses to open when physicians left since the study was created', async () => {
		const doctors = await insertUsers(h.db, 2, ['physician']);
		const study = await createStudy(h.db, input('K2', 2), organiser);
		await h.db.update(user).set({ disabledAt: new Date() }).where(eq(user.id, doctors[1]));
		const e = await refusal(changeStudyState(h.db, study.id, 'open', organiser));
		expect(e.message).toBe(
			'This study asks for 2 physicians per question but only 1 physician account exists; invite 1 more or lower k.'
		);
		expect((await getStudy(h.db, study.id))!.state).toBe('draft');
		expect(await h.db.select().from(studyQuestion)).toEqual([]);
	});

	it('accepts a shortfall covered by pending invitations only after confirmation, and audits it', async () => {
		await insertUsers(h.db, 1, ['physician']);
		await invite('new.doctor@test.local');
		await invite('other.doctor@test.local');
		const warned = await refusal(createStudy(h.db, input('K3', 3), organiser));
		expect(warned.code).toBe('needs_confirmation');
		const warning =
			'This study asks for 3 physicians per question but only 1 physician account exists; it can finish only after 2 of the pending physician invitations (new.doctor@test.local, other.doctor@test.local) are accepted.';
		expect(warned.problems).toEqual([warning]);
		expect(await h.db.select().from(studyTable)).toEqual([]);

		const study = await createStudy(h.db, input('K3', 3), organiser, { confirm: true });
		expect((await auditOf('study.create')).confirmedWarnings).toEqual([warning]);
		const opening = await refusal(changeStudyState(h.db, study.id, 'open', organiser));
		expect(opening).toMatchObject({ code: 'needs_confirmation', problems: [warning] });
		expect((await getStudy(h.db, study.id))!.state).toBe('draft');
		await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
		expect(await auditOf('study.open')).toMatchObject({
			state: 'open',
			confirmedWarnings: [warning]
		});
	});

	it('refuses even with confirmation when pending invitations do not cover the shortfall', async () => {
		await insertUsers(h.db, 1, ['physician']);
		await invite('new.doctor@test.local');
		// An expired invitation and one for another role do not count.
		await invite('late.doctor@test.local', 1);
		await createInvitation(
			h.db,
			{ email: 'student@test.local', displayName: 'S', roles: ['reviewer'] },
			organiser
		);
		const e = await refusal(
			createStudy(h.db, input('K4', 4), organiser, {
				confirm: true,
				now: new Date(Date.now() + 2 * 3_600_000)
			})
		);
		expect(e.message).toBe(
			'This study asks for 4 physicians per question but only 1 physician account exists and 1 physician invitation is pending (new.doctor@test.local); invite 2 more or lower k.'
		);
		expect(await h.db.select().from(studyTable)).toEqual([]);
	});

	it('allows k = 1 only after confirming that agreement statistics will be undefined', async () => {
		const noOne = await refusal(createStudy(h.db, input('K1', 1), organiser, { confirm: true }));
		expect(noOne.message).toBe(
			'This study asks for 1 physician per question but only 0 physician accounts exist; invite 1 more or lower k.'
		);
		await insertUsers(h.db, 1, ['physician']);
		const warned = await refusal(createStudy(h.db, input('K1', 1), organiser));
		expect(warned.code).toBe('needs_confirmation');
		expect(warned.problems).toEqual([
			'This study asks for 1 physician per question: agreement statistics between physicians will be undefined for this study (they need 2 rankings of a question).'
		]);
		const study = await createStudy(h.db, input('K1', 1), organiser, { confirm: true });
		await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
		const [opened] = await h.db
			.select()
			.from(auditEvent)
			.where(and(eq(auditEvent.action, 'study.open'), eq(auditEvent.objectId, String(study.id))));
		expect((opened.after as { confirmedWarnings: string[] }).confirmedWarnings).toHaveLength(1);
	});
});
