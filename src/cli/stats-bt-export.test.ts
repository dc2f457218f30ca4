// The battles a pairwise study exports are the input `cliniq stats bt` reads: a study judged on
// PGlite, its battles CSV written to a file, the command's ratings equal to the study's own fit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDb } from '$lib/server/db/testing';
import { insertUsers } from '$lib/server/fixtures/ranking';
import { seedQuestionSet } from '$lib/server/fixtures/rubric';
import {
	battlesCsv,
	changeStudyState,
	claimNext,
	createStudy,
	exportPairwiseJudgements,
	submitPreference
} from '$lib/server/domain/studies';
import { bradleyTerry } from '$lib/stats/bradley-terry';
import { main } from './main';

describeEachDb('cliniq stats bt on a study’s battles export', (h) => {
	it('reads the export and rates the models as the study’s battles do', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const physicians = await insertUsers(h.db, 2, ['physician']);
		const set = await seedQuestionSet(h.db, { questions: 3, models: ['m1', 'm2'] });
		const s = await createStudy(
			h.db,
			{
				name: 'Battles',
				design: 'pairwise',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		// Every pair judged by both physicians: left, right, then both ties in turn.
		const outcomes = ['left', 'right', 'tie_good', 'tie_bad'] as const;
		let n = 0;
		for (let more = true; more;) {
			more = false;
			for (const p of physicians) {
				const c = await claimNext(h.db, s.id, p, new Date());
				if (c.status !== 'assigned') continue;
				more = true;
				await submitPreference(h.db, p, s.id, {
					assignmentId: c.publicId,
					idempotencyKey: `key-${String(n).padStart(6, '0')}`,
					outcome: outcomes[n++ % outcomes.length],
					strength: null,
					aspects: {},
					reason: ''
				});
			}
		}
		const rows = await exportPairwiseJudgements(h.db, s.id);
		// 3 questions × 3 pairs (two models and the reference) × 2 physicians.
		expect(rows).toHaveLength(18);
		const path = join(mkdtempSync(join(tmpdir(), 'cliniq-battles-')), 'battles.csv');
		writeFileSync(path, battlesCsv(rows));
		const out: string[] = [];
		const err: string[] = [];
		const code = await main(['stats', 'bt', path, '--bootstrap', '50', '--seed', 's'], {
			stdout: (x) => out.push(x),
			stderr: (x) => err.push(x)
		});
		expect(err).toEqual([]);
		expect(code).toBe(0);
		const printed = JSON.parse(out.join('\n'));
		const fit = bradleyTerry(
			rows.map((r) => ({
				question: r.question as string,
				modelA: r.model_a as string,
				modelB: r.model_b as string,
				winner: r.winner
			}))
		);
		expect(printed).toMatchObject({ battles: 18, questions: 3 });
		expect(printed.models).toEqual(['m1', 'm2', 'reference']);
		for (const m of printed.models)
			expect(printed.ratings[m]).toBeCloseTo(fit.ratings[m].value!, 6);
		expect(Object.keys(printed.ci.ratings).sort()).toEqual(printed.models);
		expect(printed.style_controlled.ratings).toBeDefined();
	});
});
