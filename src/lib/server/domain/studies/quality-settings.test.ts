import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, study } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { updateQualitySettings } from './quality-settings';
import { changeStudyState, createStudy, type StudyInput } from './studies';

describeEachDb('a study’s quality settings', (h) => {
	let organiser: string;
	let modelIds: number[];
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 3, ['physician']);
		({ modelIds } = await seedRankingContent(h.db, { count: 3, models: ['m1', 'm2'] }));
	});

	const input = (name: string, extra: Partial<StudyInput> = {}): StudyInput => ({
		name,
		selection: { types: [] },
		modelIds,
		ratersPerQuestion: 2,
		...extra
	});
	const create = (name: string, extra: Partial<StudyInput> = {}) =>
		createStudy(h.db, input(name, extra), organiser, { confirm: true });
	const names = async () =>
		(await h.db.select({ name: study.name }).from(study)).map((s) => s.name);

	it('creates a round and a benchmark study that requires it, with a gold rate', async () => {
		// k does not apply to a round: 50 raters per question is not refused with 3 physicians.
		const round = await create('Round', {
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 4,
			maxAttempts: 3,
			ratersPerQuestion: 50
		});
		expect(round).toMatchObject({
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 4,
			maxAttempts: 3,
			goldEvery: null
		});
		const live = await create('Live', { qualificationStudyId: round.id, goldEvery: 20 });
		expect(live).toMatchObject({
			purpose: 'benchmark',
			qualificationStudyId: round.id,
			goldEvery: 20,
			passMark: 0.8
		});
		// Opening a round runs no physician check either.
		await expect(changeStudyState(h.db, round.id, 'open', organiser)).resolves.toMatchObject({
			state: 'open'
		});
	});

	it('refuses a round of another design, a benchmark study as a round, and a round of a round', async () => {
		const pairwise = await create('Pairwise round', {
			design: 'pairwise',
			purpose: 'qualification'
		});
		const other = await create('Other live');
		const ranking = await create('Ranking round', { purpose: 'qualification' });
		await expect(create('Live', { qualificationStudyId: pairwise.id })).rejects.toMatchObject({
			code: 'invalid',
			field: 'qualificationStudyId',
			message:
				'The required round must be of the same design: “Pairwise round” is a pairwise round, this is a ranking study.'
		});
		await expect(create('Live', { qualificationStudyId: other.id })).rejects.toMatchObject({
			field: 'qualificationStudyId',
			message: 'The required round must be an existing qualification round.'
		});
		await expect(create('Live', { qualificationStudyId: 999_999 })).rejects.toMatchObject({
			field: 'qualificationStudyId'
		});
		await expect(
			create('Round 2', { purpose: 'qualification', qualificationStudyId: ranking.id })
		).rejects.toMatchObject({ field: 'qualificationStudyId' });
		await expect(
			create('Round 2', { purpose: 'qualification', goldEvery: 10 })
		).rejects.toMatchObject({ field: 'goldEvery' });
		expect((await names()).sort()).toEqual(['Other live', 'Pairwise round', 'Ranking round']);
	});

	it('keeps each setting within its bounds, naming the field', async () => {
		const cases: [Partial<StudyInput>, string, string][] = [
			[{ goldEvery: 1 }, 'goldEvery', 'The gold rate must be from 2 to 1000'],
			[{ goldEvery: 1001 }, 'goldEvery', 'The gold rate must be from 2 to 1000'],
			[{ goldEvery: 2.5 }, 'goldEvery', 'The gold rate must be a whole number'],
			[{ passMark: 1.2 }, 'passMark', 'The mark must be from 0 to 1'],
			[{ passMark: -0.1 }, 'passMark', 'The mark must be from 0 to 1'],
			[
				{ questionsPerAttempt: 0 },
				'questionsPerAttempt',
				'Questions per attempt must be from 1 to 100'
			],
			[
				{ questionsPerAttempt: 101 },
				'questionsPerAttempt',
				'Questions per attempt must be from 1 to 100'
			],
			[{ maxAttempts: 11 }, 'maxAttempts', 'Attempts must be from 1 to 10']
		];
		for (const [extra, field, message] of cases)
			await expect(create('Bounds', extra), JSON.stringify(extra)).rejects.toMatchObject({
				code: 'invalid',
				field,
				message: `${field} ${message}.`
			});
		await expect(
			create('Edges', { goldEvery: 2, passMark: 1, maxAttempts: 10 })
		).resolves.toMatchObject({ goldEvery: 2, passMark: 1, maxAttempts: 10 });
		expect(await names()).toEqual(['Edges']);
	});

	it('changes the settings of a study until it closes, with an audit event', async () => {
		const round = await create('Round', { purpose: 'qualification' });
		const pairwiseRound = await create('Pairwise round', {
			design: 'pairwise',
			purpose: 'qualification'
		});
		const live = await create('Live');
		await changeStudyState(h.db, live.id, 'open', organiser, { confirm: true });
		const updated = await updateQualitySettings(
			h.db,
			live.id,
			{ qualificationStudyId: round.id, goldEvery: 10, passMark: 0.7 },
			organiser
		);
		expect(updated).toMatchObject({ qualificationStudyId: round.id, goldEvery: 10, passMark: 0.7 });
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'study.quality_settings'));
		expect(event).toMatchObject({
			objectId: String(live.id),
			before: { qualificationStudyId: null, goldEvery: null, passMark: 0.8 },
			after: { qualificationStudyId: round.id, goldEvery: 10, passMark: 0.7 }
		});
		// A wrong round or a bound broken: refused, nothing changed.
		await expect(
			updateQualitySettings(h.db, live.id, { qualificationStudyId: pairwiseRound.id }, organiser)
		).rejects.toMatchObject({ field: 'qualificationStudyId' });
		await expect(
			updateQualitySettings(h.db, live.id, { goldEvery: 0 }, organiser)
		).rejects.toMatchObject({ field: 'goldEvery' });
		await expect(
			updateQualitySettings(h.db, round.id, { goldEvery: 5 }, organiser)
		).rejects.toMatchObject({ field: 'goldEvery' });
		const [still] = await h.db.select().from(study).where(eq(study.id, live.id));
		expect(still).toMatchObject({ qualificationStudyId: round.id, goldEvery: 10, passMark: 0.7 });
		await changeStudyState(h.db, live.id, 'close', organiser);
		await expect(
			updateQualitySettings(h.db, live.id, { goldEvery: 20 }, organiser)
		).rejects.toMatchObject({ code: 'locked' });
	});
});
