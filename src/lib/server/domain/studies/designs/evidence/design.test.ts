import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../db/testing';
import { DomainError } from '../../../../errors';
import { insertUsers } from '../../../../fixtures/ranking';
import { seedEvidenceSet } from '../../../../fixtures/evidence';
import { createStudy } from '../../studies';

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
});
