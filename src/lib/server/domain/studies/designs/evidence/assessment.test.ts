import { eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { assignment, auditEvent, evidenceSentence, studyQuestion } from '../../../../db/schema';
import { describeEachDb } from '../../../../db/testing';
import { rowsOf } from '../../../../db/client';
import { insertUsers } from '../../../../fixtures/ranking';
import { openEvidenceStudy, pmidOf, seedEvidenceSet } from '../../../../fixtures/evidence';
import { claimNext, expireLeases, type ClaimResult } from '../../queue';
import { evidenceScreen, saveEvidenceStep, submitEvidence } from './assessment';

type Assigned = Extract<ClaimResult, { status: 'assigned' }>;

describeEachDb('evidence assessments', (h) => {
	let organiser: string;
	let assessors: string[];

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		assessors = await insertUsers(h.db, 2, ['physician']);
	});

	it('opens one unit per answer with its sentences frozen, and never names the run', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 2, runs: ['run-alpha', 'run-beta'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		const units = await h.db
			.select({ id: studyQuestion.id, unit: studyQuestion.unit })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId));
		expect(units.map((u) => u.unit).sort()).toEqual([1, 1, 2, 2]);
		const claim = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		const screen = (await evidenceScreen(h.db, assessors[0], claim.publicId))!;
		expect(screen.sentences).toHaveLength(3);
		expect(screen.sentences[0].words.length).toBeGreaterThan(3);
		expect(screen.sentences[2].citations).toEqual([]);
		expect(Object.keys(screen.documents)).toHaveLength(3);
		expect(JSON.stringify(screen)).not.toMatch(/run-alpha|run-beta/);
	});

	it('saves step by step, refuses to finish with a gap, and finishes a complete answer', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		const { publicId } = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		await expect(submitEvidence(h.db, assessors[0], publicId)).rejects.toThrow(/as a whole/);
		await saveEvidenceStep(h.db, assessors[0], publicId, { answers: true });
		await expect(submitEvidence(h.db, assessors[0], publicId)).rejects.toThrow(/sentence 1/);
		const s1 = [pmidOf(1, 1), pmidOf(1, 2)];
		await saveEvidenceStep(h.db, assessors[0], publicId, {
			position: 1,
			interpretable: true,
			assertions: [
				{
					start: 0,
					end: 3,
					relevance: 'required',
					relations: [
						{ pmid: s1[0], relation: 'supports', evidence: [2, 1] },
						{ pmid: s1[1], relation: 'neutral', evidence: [] }
					]
				}
			]
		});
		// A span past the sentence's words, a PMID it does not cite, evidence past the abstract.
		for (const bad of [
			{ start: 0, end: 99, relations: [] },
			{ start: 0, end: 2, relations: [{ pmid: '123', relation: 'neutral' }] },
			{ start: 0, end: 2, relations: [{ pmid: s1[0], relation: 'supports', evidence: [6] }] }
		])
			await expect(
				saveEvidenceStep(h.db, assessors[0], publicId, {
					position: 1,
					interpretable: true,
					assertions: [bad]
				})
			).rejects.toThrow();
		const screen = (await evidenceScreen(h.db, assessors[0], publicId))!;
		expect(screen.saved.sentences[1].assertions[0].relations[0]).toEqual({
			pmid: s1[0],
			relation: 'supports',
			evidence: [1, 2]
		});
		await saveEvidenceStep(h.db, assessors[0], publicId, {
			position: 2,
			interpretable: false,
			assertions: []
		});
		await expect(submitEvidence(h.db, assessors[0], publicId)).rejects.toThrow(/sentence 3/);
		await saveEvidenceStep(h.db, assessors[0], publicId, {
			position: 3,
			interpretable: true,
			assertions: [{ start: 0, end: 2, relevance: 'unnecessary', relations: [] }]
		});
		const done = await submitEvidence(h.db, assessors[0], publicId, { next: true });
		expect(done.duplicate).toBe(false);
		expect(done.next).toEqual({ status: 'none', reason: 'exhausted' });
		expect((await submitEvidence(h.db, assessors[0], publicId)).duplicate).toBe(true);
		await expect(
			saveEvidenceStep(h.db, assessors[0], publicId, { answers: false })
		).rejects.toThrow(/already finished/);
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'evidence.submit'));
		expect(events).toHaveLength(1);
	});

	it('refuses hostile steps with a clear error and stores nothing', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		const { publicId } = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		let deep: unknown = 1;
		for (let i = 0; i < 10_000; i++) deep = [deep];
		const hostile = [
			deep,
			{ position: 1, interpretable: true, assertions: deep },
			{ answers: 'yes\u0000' },
			{
				position: 1,
				interpretable: true,
				assertions: [{ start: 0, end: 1, relations: [{ pmid: '1\u00002', relation: 'supports' }] }]
			},
			{
				position: 1,
				interpretable: true,
				assertions: [{ start: 0, end: 1, relevance: 'x'.repeat(100_000) }]
			},
			{ position: 2 ** 40, interpretable: true, assertions: [] },
			{ position: 1, interpretable: false, assertions: [{ start: 0, end: 1 }] }
		];
		for (const step of hostile)
			await expect(saveEvidenceStep(h.db, assessors[0], publicId, step)).rejects.toThrow(
				/not well formed|Only an interpretable/
			);
		const screen = (await evidenceScreen(h.db, assessors[0], publicId))!;
		expect(screen.saved).toEqual({ answers: null, sentences: {} });
	});

	it('a "no" to the question finishes the answer at once', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		const { publicId } = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		await saveEvidenceStep(h.db, assessors[0], publicId, { answers: false });
		expect((await submitEvidence(h.db, assessors[0], publicId)).duplicate).toBe(false);
	});

	it('a lapsed lease loses nothing: the answer is taken again while its slot is free', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		const { publicId } = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		await saveEvidenceStep(h.db, assessors[0], publicId, { answers: true });
		const later = new Date(Date.now() + 3 * 60 * 60 * 1000);
		expect(await expireLeases(h.db, studyId, later)).toBe(1);
		const saved = await saveEvidenceStep(
			h.db,
			assessors[0],
			publicId,
			{ answers: true },
			{ now: later }
		);
		expect(saved).toEqual({ leased: true, relet: true });
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, publicId));
		expect(a.state).toBe('leased');
		const [{ open }] = rowsOf<unknown>(
			await h.db.execute(
				sql`select open_slots::int as open from study_question where id = ${a.studyQuestionId}`
			)
		) as { open: number }[];
		expect(open).toBe(0);

		// Once another assessor holds the slot, the work is kept but cannot be finished.
		const much = new Date(later.getTime() + 3 * 60 * 60 * 1000);
		await expireLeases(h.db, studyId, much);
		const other = (await claimNext(h.db, studyId, assessors[1], much)) as Assigned;
		expect(other.status).toBe('assigned');
		const kept = await saveEvidenceStep(
			h.db,
			assessors[0],
			publicId,
			{ answers: false },
			{ now: much }
		);
		expect(kept.leased).toBe(false);
		await expect(submitEvidence(h.db, assessors[0], publicId, { now: much })).rejects.toThrow(
			/another assessor/
		);
		const screen = (await evidenceScreen(h.db, assessors[0], publicId))!;
		expect(screen.saved.answers).toBe(false);
	});

	it('a per-sentence study needs each interpretable sentence judged as a whole', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'], sentences: 1 });
		const studyId = await openEvidenceStudy(h.db, seed, organiser, { mode: 'sentence' });
		const { publicId } = (await claimNext(h.db, studyId, assessors[0])) as Assigned;
		await saveEvidenceStep(h.db, assessors[0], publicId, { answers: true });
		await saveEvidenceStep(h.db, assessors[0], publicId, {
			position: 1,
			interpretable: true,
			assertions: []
		});
		await expect(submitEvidence(h.db, assessors[0], publicId)).rejects.toThrow(/judgement/);
		const [s] = await h.db.select().from(evidenceSentence).limit(1);
		await saveEvidenceStep(h.db, assessors[0], publicId, {
			position: 1,
			interpretable: true,
			assertions: [{ start: 0, end: s.words.length, relevance: 'borderline', relations: [] }]
		});
		await submitEvidence(h.db, assessors[0], publicId);
	});
});
