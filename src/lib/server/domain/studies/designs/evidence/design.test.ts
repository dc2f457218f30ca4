import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../db/testing';
import { DomainError } from '../../../../errors';
import { insertUsers } from '../../../../fixtures/ranking';
import { openEvidenceStudy, seedEvidenceSet } from '../../../../fixtures/evidence';
import { createStudy } from '../../studies';
import { evidenceSummary } from './design';

describeEachDb('creating an evidence study', (h) => {
	it('refuses the QA bank as the source of questions, naming the field', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 1, ['physician']);
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const create = (questionSetId?: number) =>
			createStudy(
				h.db,
				{
					name: 'Evidence',
					design: 'evidence',
					questionSetId,
					selection: { types: [] },
					modelIds: seed.modelIds,
					ratersPerQuestion: 1,
					evidenceMode: 'sentence'
				},
				organiser,
				{ confirm: true }
			);
		const refused = await create().catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(DomainError);
		expect((refused as DomainError).field).toBe('questionSetId');
		expect((await create(seed.questionSetId)).design).toBe('evidence');
	});

	it('counts the frozen answers, sentences, citations and documents never imported', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 2, ['physician']);
		const seed = await seedEvidenceSet(h.db, { questions: 2, runs: ['r1', 'r2'], missing: true });
		const studyId = await openEvidenceStudy(h.db, seed, organiser, { k: 2 });
		// 2 questions × 2 runs; 3 sentences each, the first two citing 2 documents; document 2 of
		// each question was never imported.
		expect(await evidenceSummary(h.db, studyId)).toEqual({
			mode: 'assertion',
			answers: 4,
			sentences: 12,
			citations: 16,
			missingDocuments: 2
		});
	});
});
