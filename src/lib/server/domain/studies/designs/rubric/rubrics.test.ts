import { count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, rubric, rubricVersion } from '../../../../db/schema';
import { describeEachDb } from '../../../../db/testing';
import { DomainError } from '../../../../errors';
import { insertUsers } from '../../../../fixtures/ranking';
import { subAspectsOf, type RubricDefinition } from '../../../../../schemas/rubric';
import { createRubric, getRubric, listRubrics, saveRubricVersion } from './rubrics';

/** The refusal a call ends in (the test fails when it does not refuse). */
async function refusal(p: Promise<unknown>): Promise<DomainError> {
	const e = await p.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return e as DomainError;
}

/** The same value with every object's keys in reverse order (as jsonb may return them). */
function keysReversed(v: unknown): unknown {
	if (Array.isArray(v)) return v.map(keysReversed);
	if (v && typeof v === 'object')
		return Object.fromEntries(
			Object.entries(v)
				.reverse()
				.map(([k, x]) => [k, keysReversed(x)])
		);
	return v;
}

const clone = (d: RubricDefinition): RubricDefinition => structuredClone(d);

describeEachDb('rubrics', (h) => {
	let organiser: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
	});

	async function rowCounts() {
		const [r] = await h.db.select({ n: count() }).from(rubric);
		const [v] = await h.db.select({ n: count() }).from(rubricVersion);
		const [a] = await h.db.select({ n: count() }).from(auditEvent);
		return { rubrics: r.n, versions: v.n, audit: a.n };
	}

	it('a rubric from the HDCEval template has its 3 aspects and 10 sub-aspects, each 0–5 with a required rationale', async () => {
		const { rubric: created, version } = await createRubric(
			h.db,
			{ name: 'HDCEval', template: 'hdceval' },
			organiser
		);
		expect(version.version).toBe(1);
		const d = version.definition;
		expect(d.aspects.map((a) => a.code)).toEqual(['REL', 'COR', 'EXP']);
		expect(d.aspects.map((a) => a.subAspects.map((s) => s.code))).toEqual([
			['CONT', 'COND', 'CONC'],
			['ACC', 'INFO', 'UNC'],
			['CLAR', 'LANG', 'TE', 'INTE']
		]);
		const subs = subAspectsOf(d);
		expect(subs).toHaveLength(10);
		for (const s of subs) {
			expect(s.scale, s.code).toEqual({ min: 0, max: 5 });
			expect(s.rationale, s.code).toBe('required');
			// Scores 0…5: six levels, each described.
			expect(s.levels, s.code).toHaveLength(6);
			expect(
				s.levels.every((l) => l.length > 0),
				s.code
			).toBe(true);
		}
		// The names the paper does not give are marked as ours, in the note and on each of them.
		for (const code of ['INFO', 'UNC', 'LANG', 'TE', 'INTE'])
			expect(subs.find((s) => s.code === code)!.description).toMatch(/working name/i);
		for (const code of ['CONT', 'COND', 'CONC', 'ACC', 'CLAR'])
			expect(subs.find((s) => s.code === code)!.description).not.toMatch(/working name/i);
		expect(d.note).toMatch(/working names/i);

		const [event] = await h.db.select().from(auditEvent);
		expect(event).toMatchObject({
			action: 'rubric.create',
			objectType: 'rubric',
			objectId: String(created.id),
			actorId: organiser
		});
		expect(await listRubrics(h.db)).toEqual([
			expect.objectContaining({ name: 'HDCEval', latestVersion: 1, versions: 1, studies: 0 })
		]);
	});

	it('saving a changed definition adds version 2 and leaves version 1 as it was', async () => {
		const { rubric: r, version: v1 } = await createRubric(
			h.db,
			{ name: 'Team rubric', template: 'hdceval' },
			organiser
		);
		const [before] = await h.db.select().from(rubricVersion).where(eq(rubricVersion.id, v1.id));
		const changed = clone(v1.definition);
		changed.aspects[0].subAspects[0].levels[3] = 'Uses the context; one detail is missed.';

		const saved = await saveRubricVersion(
			h.db,
			r.id,
			changed,
			'Level 3 of CONT reworded',
			organiser
		);
		expect(saved.created).toBe(true);
		expect(saved.version.version).toBe(2);
		expect(saved.version.definition.aspects[0].subAspects[0].levels[3]).toBe(
			'Uses the context; one detail is missed.'
		);

		const [after] = await h.db.select().from(rubricVersion).where(eq(rubricVersion.id, v1.id));
		expect(after).toEqual(before);
		expect(JSON.stringify(after.definition)).toBe(JSON.stringify(before.definition));

		const detail = await getRubric(h.db, r.id);
		expect(detail!.versions.map((v) => [v.version, v.note])).toEqual([
			[1, ''],
			[2, 'Level 3 of CONT reworded']
		]);
		expect(detail!.latest.version).toBe(2);
		expect((await rowCounts()).audit).toBe(2);
	});

	it('saving the latest definition unchanged writes nothing and returns that version', async () => {
		const { rubric: r, version: v1 } = await createRubric(
			h.db,
			{ name: 'Blank', template: 'blank' },
			organiser
		);
		const before = await rowCounts();
		// The same content with its keys in another order is the same definition.
		const again = await saveRubricVersion(
			h.db,
			r.id,
			keysReversed(v1.definition),
			'no-op',
			organiser
		);
		expect(again).toEqual({ version: v1, created: false });
		expect(await rowCounts()).toEqual(before);
	});

	it('refuses invalid definitions with the field path at fault, and writes nothing', async () => {
		const { rubric: r, version: v1 } = await createRubric(
			h.db,
			{ name: 'HDCEval', template: 'hdceval' },
			organiser
		);
		const before = await rowCounts();

		const duplicate = clone(v1.definition);
		duplicate.aspects[1].subAspects[2].code = 'CONT';
		const dup = await refusal(saveRubricVersion(h.db, r.id, duplicate, '', organiser));
		expect(dup.code).toBe('invalid');
		expect(dup.field).toBe('aspects.1.subAspects.2.code');

		const scale = clone(v1.definition);
		scale.aspects[2].subAspects[0].scale = { min: 3, max: 3 };
		const bad = await refusal(saveRubricVersion(h.db, r.id, scale, '', organiser));
		expect(bad.field).toBe('aspects.2.subAspects.0.scale');

		const unnamed = clone(v1.definition);
		unnamed.aspects[0].name = '  ';
		const empty = await refusal(saveRubricVersion(h.db, r.id, unnamed, '', organiser));
		expect(empty.field).toBe('aspects.0.name');

		const noName = await refusal(createRubric(h.db, { name: ' ', template: 'blank' }, organiser));
		expect([noName.code, noName.field]).toEqual(['invalid', 'name']);

		expect(await rowCounts()).toEqual(before);
		expect((await getRubric(h.db, r.id))!.latest.version).toBe(1);
	});

	it('a second rubric with a taken name is a conflict', async () => {
		await createRubric(h.db, { name: 'HDCEval', template: 'hdceval' }, organiser);
		const before = await rowCounts();
		const e = await refusal(
			createRubric(h.db, { name: ' HDCEval ', template: 'blank' }, organiser)
		);
		expect([e.code, e.field]).toEqual(['conflict', 'name']);
		expect(await rowCounts()).toEqual(before);
	});

	it('saving to a rubric that does not exist is not_found', async () => {
		const { version } = await createRubric(h.db, { name: 'X', template: 'blank' }, organiser);
		const e = await refusal(saveRubricVersion(h.db, 9999, version.definition, '', organiser));
		expect(e.code).toBe('not_found');
		expect(await getRubric(h.db, 9999)).toBeNull();
	});
});
