// A database with ranking studies from before the study engine upgrades without loss: the
// `ranking_study` table becomes `study` (renamed, not copied), its constraints and sequence follow,
// every study is a ranking study, and its rankings, export and queue behave as before.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
	migrateDatabase,
	migrationsFolder,
	openDatabase,
	rowsOf,
	type DatabaseHandle
} from '../../db/client';
import { createScratchDatabase } from '../../db/scratch';
import { testDbKinds, type TestDbKind } from '../../db/testing';
import { exportRankings } from './export';
import { claimNext } from './queue';
import { getStudy, listStudies } from './studies';

/** Migrations up to and including 0028, the last before the study engine. */
const BEFORE_ENGINE = 29;

describe.each(testDbKinds())('the study engine upgrade on %s', (kind: TestDbKind) => {
	const cleanup: (() => Promise<void> | void)[] = [];
	afterEach(async () => {
		for (const done of cleanup.splice(0).reverse()) await done();
	});

	async function emptyDb(): Promise<DatabaseHandle> {
		if (kind === 'pglite') {
			const h = await openDatabase('pglite:memory');
			cleanup.push(() => h.close());
			return h;
		}
		const scratch = await createScratchDatabase(inject('postgresTemplateUrl')!, {
			prefix: 'cliniq_t'
		});
		const h = await openDatabase(scratch.url, { max: 2 });
		cleanup.push(() => scratch.drop());
		cleanup.push(() => h.close());
		return h;
	}

	function migrationsBeforeEngine(): string {
		const dir = join(mkdtempSync(join(tmpdir(), 'cliniq-engine-')), 'drizzle');
		cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
		cpSync(migrationsFolder(), dir, { recursive: true });
		const path = join(dir, 'meta', '_journal.json');
		const journal = JSON.parse(readFileSync(path, 'utf8')) as {
			entries: { tag: string }[];
		};
		expect(journal.entries[BEFORE_ENGINE - 1].tag).toBe('0028_sign_in_known_address');
		journal.entries = journal.entries.slice(0, BEFORE_ENGINE);
		writeFileSync(path, JSON.stringify(journal));
		return dir;
	}

	it('keeps every study, ranking and export row, and claims work on the upgraded tables', async () => {
		const h = await emptyDb();
		await migrateDatabase(h, migrationsBeforeEngine(), null);
		// A ranking study as the portal stored it before the engine: one QA item, two answers, one
		// submitted ranking, one question still open for a second physician.
		const statements = `
			insert into "user" (id, email, display_name, pseudonym, roles) values
				('org', 'o@t', 'O', 'P-ORG', '{organiser}'),
				('doc', 'd@t', 'D', 'P-DOC', '{physician}'),
				('doc2', 'e@t', 'E', 'P-DOC2', '{physician}');
			insert into dataset (name) values ('default');
			insert into model (name) values ('m1');
			insert into qa_item (dataset_id, item_key, type, question) values (1, 'k1', 'short_answer', 'Q?');
			insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
				values (1, 1, '{}', 'h', 'short_answer', 'Q?', 'A', 'import');
			insert into response (item_id, item_version_id, model_id, raw, text, content_hash)
				values (1, 1, 1, '"R"', 'R', 'h');
			insert into ranking_study (name, state, raters_per_question, created_by, opened_at)
				values ('Old study', 'open', 2, 'org', now());
			insert into study_model (study_id, model_id) values (1, 1);
			insert into study_question (study_id, item_id, item_version_id, open_slots, completed)
				values (1, 1, 1, 1, 1);
			insert into candidate (study_question_id, response_id, model_id, text, shown_text)
				values (1, 1, 1, 'R', 'R');
			insert into candidate (study_question_id, is_reference, text, shown_text) values (1, true, 'A', 'A');
			insert into assignment (study_question_id, physician_id, public_id, seed, state, submitted_at)
				values (1, 'doc', 'pub-old-1', 'seed-1', 'submitted', now());
			insert into assignment_candidate (assignment_id, candidate_id, public_id, position)
				values (1, 1, 'c1', 0), (1, 2, 'c2', 1);
			insert into ranking (assignment_id, physician_id, idempotency_key, displayed_order)
				values (1, 'doc', 'key-1', '[1, 2]');
			insert into ranking_entry (ranking_id, candidate_id, rank, tag, display_position)
				values (1, 1, 2, 'okay', 1), (1, 2, 1, 'good', 2);
		`;
		// One statement per call: the extended protocol takes one at a time.
		for (const statement of statements.split(';').filter((x) => x.trim()))
			await h.db.execute(sql.raw(statement));
		await migrateDatabase(h);

		const [study] = await listStudies(h.db);
		expect(study).toMatchObject({ id: 1, name: 'Old study', design: 'ranking', state: 'open' });
		expect(await getStudy(h.db, 1)).toMatchObject({ questionSet: null, ratersPerQuestion: 2 });
		expect(
			(await exportRankings(h.db, 1)).map((r) => [r.model, r.rank, r.tag, r.display_position])
		).toEqual([
			['m1', 2, 'okay', 1],
			['reference', 1, 'good', 2]
		]);
		// No constraint, index or sequence keeps the old table's name.
		const leftovers = rowsOf<{ name: string }>(
			await h.db.execute(sql`
				select conname::text as name from pg_constraint where conname like '%ranking_study%'
				union all select relname::text from pg_class where relname like '%ranking_study%'`)
		);
		expect(leftovers).toEqual([]);
		// The identity continues after the old rows; the queue works on the renamed table.
		const [next] = rowsOf<{ id: number }>(
			await h.db.execute(sql`
				insert into study (name, created_by) values ('New study', 'org') returning id`)
		);
		expect(next.id).toBe(2);
		const claim = await claimNext(h.db, 1, 'doc2', new Date(), { view: true });
		expect(claim).toMatchObject({ status: 'assigned', resumed: false });
		if (claim.status === 'assigned') {
			expect(claim.view?.question).toMatchObject({ type: 'short_answer', text: 'Q?' });
			expect(claim.view?.study.design).toBe('ranking');
		}
	});
});
