import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEvent, candidate, qaItem, studyQuestion } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { SUBMISSION_CASES, SUBMISSION_MODELS } from '../../fixtures/submission-outputs';
import type { Db } from '../../db/client';
import { DomainError } from '../../errors';
import { importQaFiles } from '../imports/qa-import';
import { importResponses } from '../imports/response-import';
import { exportBlindingAudit, exportRankings } from './export';
import { auditStudy, blindingWarnings } from './blinding';
import { previewStudyAudit } from './blinding-preview';
import { claimNext, getAssignmentView } from './queue';
import { submitRanking } from './designs/ranking/rankings';
import { changeStudyState, createStudy, getStudy, listModelsWithCounts } from './studies';

const actor = { userId: null, label: 'test' };

/** Imports the fixture's items and each model's outputs (`outputs` overrides them per item). */
async function seed(db: Db, outputs?: (i: number, model: string) => string | undefined) {
	const records = SUBMISSION_CASES.map((c) => c.record);
	await importQaFiles(db, [{ fileName: 'items.json', text: JSON.stringify(records) }], { actor });
	const items = await db.select({ id: qaItem.id }).from(qaItem).orderBy(qaItem.id);
	const lines = items.flatMap((item, i) =>
		SUBMISSION_MODELS.map((m) =>
			JSON.stringify({
				item: item.id,
				model: m,
				response: outputs?.(i, m) ?? SUBMISSION_CASES[i].outputs[m]
			})
		)
	);
	await importResponses(db, [{ fileName: 'out.jsonl', text: lines.join('\n') }], { actor });
	return (await listModelsWithCounts(db)).map((m) => m.id);
}

describeEachDb('blinding of a study', (h) => {
	it('freezes the canonical presentation, shows only it to physicians and exports both texts', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const [doctor] = await insertUsers(h.db, 2, ['physician']);
		const modelIds = await seed(h.db);
		const study = await createStudy(
			h.db,
			{ name: 'Blinded', selection: { types: ['short_answer'] }, modelIds, ratersPerQuestion: 2 },
			organiser
		);
		const preview = await previewStudyAudit(h.db, study.id);
		expect(preview.raw.byForm.map((q) => q.features)).toEqual([
			['prefix'],
			['prefix', 'firstLetter']
		]);
		expect(preview.shown.byForm).toEqual([]);
		// The preview froze nothing.
		expect(await h.db.select().from(studyQuestion)).toEqual([]);

		await changeStudyState(h.db, study.id, 'open', organiser);
		const claim = await claimNext(h.db, study.id, doctor);
		if (claim.status !== 'assigned') throw new Error('expected an assignment');
		const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
		expect(view.candidates).toHaveLength(4);
		for (const c of view.candidates) expect(c.text).not.toMatch(/final answer/i);
		const audit = await auditStudy(h.db, study.id);
		expect(audit.shown).toMatchObject({ questions: 2, withReference: 2, byForm: [] });
		expect(audit.raw.byForm).toHaveLength(2);
		expect(await blindingWarnings(h.db, study.id)).toEqual([]);

		await submitRanking(h.db, doctor, {
			assignmentId: claim.publicId,
			idempotencyKey: 'blinding-export',
			entries: view.candidates.map((c, i) => ({ candidateId: c.id, rank: i + 1, tag: 'okay' }))
		});
		const rows = await exportRankings(h.db, study.id);
		const alpha = rows.find((r) => r.model === 'model-alpha')!;
		expect(alpha.candidate_text).toMatch(/^Final Answer: /);
		expect(alpha.shown_text).not.toMatch(/^Final Answer/);
		expect(view.candidates.map((c) => c.text)).toContain(alpha.shown_text);
	});

	it('asks for confirmation before opening a study whose reference stands out, and opens when confirmed', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 3, ['physician']);
		// No model gives reasoning, while the reference shows the item's three reasoning steps
		// (the organiser chose reasoning for multi-hop questions).
		const modelIds = await seed(h.db, (i) =>
			SUBMISSION_CASES[i].record.type === 'multi_hop' ? 'Final Answer: Something else' : undefined
		);
		const study = await createStudy(
			h.db,
			{
				name: 'Unblinded',
				selection: { types: ['multi_hop'] },
				modelIds,
				presentation: { multi_hop: 'with_detail' }
			},
			organiser
		);
		const refused = await changeStudyState(h.db, study.id, 'open', organiser).catch((e) => e);
		expect(refused).toBeInstanceOf(DomainError);
		expect(refused.code).toBe('needs_confirmation');
		// Only the blinding audit warns (three physicians exist for k = 3): the attacks find the
		// reference, the form audit finds its reasoning part.
		expect(refused.problems).toContain(
			'Multi-hop: the reference answer is picked by “pick the longest” in 2 of 2 questions (100 %; 95 % interval 34 %–100 %) against 25 % by chance. Physicians may be able to tell it apart by the form of its answers.'
		);
		const form = refused.problems.find((p: string) => p.startsWith('Reference identifiable'));
		expect(form).toMatch(/^Reference identifiable by form in 2 of 2 questions \(100 %\)/);
		expect(form).toContain('reasoning or explanation part in 2');
		expect(
			refused.problems.every((p: string) => /^(Multi-hop|Reference identifiable)/.test(p))
		).toBe(true);
		// Nothing was frozen or changed.
		expect(await h.db.select().from(candidate)).toEqual([]);

		const opened = await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
		expect(opened.state).toBe('open');
		const frozen = await h.db
			.select({ id: candidate.id })
			.from(candidate)
			.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
			.where(eq(studyQuestion.studyId, study.id));
		expect(frozen).toHaveLength(8);
		expect((await auditStudy(h.db, study.id)).shown.byForm).toHaveLength(2);
		// The confirmation is recorded with the warnings the organiser confirmed.
		const [event] = await h.db
			.select({ after: auditEvent.after })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'study.open'));
		expect((event.after as { confirmedWarnings: string[] }).confirmedWarnings).toEqual(
			refused.problems
		);
	});

	it('stores the per-type choice with the study, applies it when opening and exports the audit', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 3, ['physician']);
		const modelIds = await seed(h.db);
		const shown = async (studyId: number) =>
			(
				await h.db
					.select({ text: candidate.shownText, isReference: candidate.isReference })
					.from(candidate)
					.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
					.where(eq(studyQuestion.studyId, studyId))
			).map((c) => c.text!);
		const withReasoning = await createStudy(
			h.db,
			{
				name: 'With reasoning',
				selection: { types: ['multi_hop'] },
				modelIds,
				presentation: { multi_hop: 'with_detail' }
			},
			organiser
		);
		const plain = await createStudy(
			h.db,
			{ name: 'Answers only', selection: { types: ['multi_hop'] }, modelIds },
			organiser
		);
		expect((await getStudy(h.db, withReasoning.id))!.presentation).toMatchObject({
			multi_hop: 'with_detail',
			multi_hop_inverse: 'with_detail',
			true_false: 'answer_only'
		});
		expect((await getStudy(h.db, plain.id))!.presentation!.multi_hop).toBe('answer_only');
		expect(await exportBlindingAudit(h.db, plain.id)).toBeNull();
		for (const s of [withReasoning, plain])
			await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		const detailed = await shown(withReasoning.id);
		expect(detailed).toHaveLength(8);
		for (const t of detailed) expect(t).toMatch(/^Answer: .+\n\nReasoning:\n/);
		for (const t of await shown(plain.id)) expect(t).not.toMatch(/Reasoning|\n/);

		const exported = (await exportBlindingAudit(h.db, withReasoning.id))!;
		expect(exported.presentation).toMatchObject({ multi_hop: 'with_detail' });
		const reference = exported.attacks.filter(
			(r) => r.texts === 'shown' && r.source === 'reference' && r.question_type === 'multi_hop'
		);
		expect(reference.map((r) => r.attack)).toEqual(['longest', 'topTwo', 'classifier']);
		expect(reference[0]).toMatchObject({ n: 2, chance: 0.25 });
		// Every source appears for every attack, on shown and raw texts alike.
		expect(exported.attacks).toHaveLength(2 * 4 * 3);
	});
});
