import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../db/client';
import { describeEachDb } from '../../db/testing';
import { EXACT_COUNT_LIMIT, ITEM_SORTS, SEARCH_TUNING, listItems, parseItemQuery } from './items';
import { orderBy } from './keyset';

/**
 * `n` items written with set-based SQL, with many ties in every sortable column (ten distinct
 * questions, three timestamps, nulls in the verdict, relevance and provenance) so that paging
 * must fall back to the id to keep its place.
 */
async function seedTiedItems(db: Db, n: number) {
	await db.execute(sql`insert into dataset (name) values ('paging')`);
	await db.execute(sql`
		insert into qa_item (dataset_id, item_key, type, paragraph_id, question, status,
			final_verdict, final_relevance, provenance, updated_at)
		select d.id, md5('key' || g), (enum_range(null::qa_type))[1 + g % 7], 'p' || g,
			'Question ' || (g % 10) || ' about ' || (array['asthma', 'Metformin', 'sepsis'])[1 + g % 3],
			(enum_range(null::item_status))[1 + g % 5],
			case when g % 4 <> 0 then (enum_range(null::verdict))[1 + g % 3] end,
			case when g % 3 <> 0 then 1 + g % 5 end,
			case when g % 2 = 0 then (enum_range(null::provenance))[1 + g % 3] end,
			timestamptz '2026-01-01 10:00:00.000001+00' + (g % 3) * interval '1 microsecond'
		from generate_series(1, ${n}) g, dataset d where d.name = 'paging'`);
	await db.execute(sql`
		insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
		select id, 1, '{}'::jsonb, md5(id::text), type, question,
			case when id % 5 = 0 then 'Levothyroxine' else 'True' end, 'import'
		from qa_item`);
	await db.execute(sql`
		update qa_item i set current_version_id = v.id from qa_item_version v where v.item_id = i.id`);
}

/** Item ids in the table's order, read without paging (the reference a paged walk must match). */
async function allInOrder(db: Db, sort: (typeof ITEM_SORTS)[number], dir: 'asc' | 'desc') {
	return rowsOf<{ id: number }>(
		await db.execute(
			sql`select "qa_item"."id" as id from "qa_item" order by ${sql.join(orderBy(sort, dir), sql`, `)}`
		)
	).map((r) => Number(r.id));
}

const list = (db: Db, query: string) => listItems(db, parseItemQuery(new URLSearchParams(query)));

describeEachDb('item table paging', (h) => {
	beforeEach(async () => {
		await seedTiedItems(h.db, 37);
	});

	it('walks every sort forwards and backwards without skipping or repeating a row', async () => {
		for (const sort of ITEM_SORTS) {
			for (const dir of ['asc', 'desc'] as const) {
				const base = `sort=${sort}&dir=${dir}&size=10`;
				const expected = await allInOrder(h.db, sort, dir);
				expect(expected).toHaveLength(37);

				const forwards: number[] = [];
				let page = await list(h.db, base);
				expect(page.isFirst).toBe(true);
				expect(page.previous).toBeNull();
				forwards.push(...page.rows.map((r) => r.id));
				while (page.next) {
					page = await list(h.db, `${base}&after=${encodeURIComponent(page.next)}`);
					forwards.push(...page.rows.map((r) => r.id));
				}
				expect(page.isLast).toBe(true);
				expect(forwards, `${sort} ${dir} forwards`).toEqual(expected);

				const backwards: number[][] = [];
				page = await list(h.db, `${base}&page=last`);
				expect(page.isLast).toBe(true);
				expect(page.rows).toHaveLength(10);
				backwards.unshift(page.rows.map((r) => r.id));
				while (page.previous) {
					page = await list(h.db, `${base}&before=${encodeURIComponent(page.previous)}`);
					backwards.unshift(page.rows.map((r) => r.id));
				}
				expect(page.isFirst).toBe(true);
				// Walking back from the last page, the first page comes out whole.
				expect(backwards[0], `${sort} ${dir} first page from the back`).toEqual(
					expected.slice(0, 10)
				);
				expect(backwards.flat().slice(10), `${sort} ${dir} backwards`).toEqual(
					expected.slice(-(backwards.flat().length - 10))
				);
				expect(new Set(backwards.flat()).size).toBe(37);
			}
		}
	});

	it('next then previous comes back to the same page', async () => {
		const base = 'sort=question&dir=desc&size=10';
		const first = await list(h.db, base);
		const second = await list(h.db, `${base}&after=${encodeURIComponent(first.next!)}`);
		const third = await list(h.db, `${base}&after=${encodeURIComponent(second.next!)}`);
		const back = await list(h.db, `${base}&before=${encodeURIComponent(third.previous!)}`);
		expect(back.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
		expect(back.next).toBe(second.next);
	});

	it('keeps its place when items are added before the page', async () => {
		const base = 'sort=finalRelevance&size=10';
		const first = await list(h.db, base);
		const seen = first.rows.map((r) => r.id);
		// New items that sort first (relevance 1, as many as a page): an offset would repeat rows.
		await h.db.execute(sql`
			insert into qa_item (dataset_id, item_key, type, question, final_relevance)
			select d.id, 'new-' || g, 'list', 'New question', 1
			from generate_series(1, 10) g, dataset d`);
		const second = await list(h.db, `${base}&after=${encodeURIComponent(first.next!)}`);
		expect(second.rows).toHaveLength(10);
		expect(second.rows.filter((r) => seen.includes(r.id))).toEqual([]);
		expect(second.rows.filter((r) => r.question === 'New question')).toEqual([]);
	});

	it('starts at the first page for a cursor that is not a position of the sort', async () => {
		const first = await list(h.db, 'sort=updatedAt&size=10');
		for (const bad of ['12:yesterday', 'x', '5:2026-01-01', '']) {
			const page = await list(h.db, `sort=updatedAt&size=10&after=${encodeURIComponent(bad)}`);
			expect(page.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
			expect(page.isFirst).toBe(true);
		}
		// A verdict cursor must name a verdict (or none).
		const verdicts = await list(h.db, 'sort=finalVerdict&size=10&after=3:maybe');
		expect(verdicts.isFirst).toBe(true);
	});

	it('searches the current question and answer by substring, and item keys by prefix', async () => {
		const ids = async (query: string) =>
			(await list(h.db, `size=200&${query}`)).rows.map((r) => r.id);
		// Case-insensitive, inside a word.
		const metformin = await ids('q=TFORM');
		expect(metformin).toHaveLength(13);
		for (const id of metformin) expect(id % 3).toBe(1);
		// In the gold answer.
		expect((await ids('q=levothyrox')).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 7 }, (_, i) => 5 * (i + 1))
		);
		// An item key by its first characters.
		const [{ key }] = rowsOf<{ key: string }>(
			await h.db.execute(sql`select item_key as key from qa_item where id = 7`)
		);
		expect(await ids(`q=${key.slice(0, 8)}`)).toContain(7);
		// Wildcards are literal.
		expect(await ids('q=%25')).toEqual([]);
		// A corrected item is found by its current text, not its old one.
		await h.db.execute(sql`
			insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
			select id, 2, '{}'::jsonb, 'c2', type, 'Corrected wording', 'True', 'correction' from qa_item where id = 4`);
		await h.db.execute(sql`
			update qa_item set current_version_id = v.id, current_version = 2, question = v.question
			from qa_item_version v where v.item_id = 4 and v.version = 2 and qa_item.id = 4`);
		expect(await ids('q=corrected wording')).toEqual([4]);
		expect(await ids('q=metformin')).not.toContain(4);
	});
});

describeEachDb('item table search, sorted', (h) => {
	const tuned = { ...SEARCH_TUNING };
	afterEach(() => {
		Object.assign(SEARCH_TUNING, tuned);
	});

	it('matches a question in any case as ILIKE does, accented and non-Latin letters too', async () => {
		// The walks and the pass test the stored lower case of each question; the versions' search
		// is ILIKE itself: every way must select the same items.
		await seedTiedItems(h.db, 40);
		const questions = ['ÉDEME of the ankle', 'Ödem beim Kind', 'ΣΗΨΗ in adults', 'Straße 100%'];
		for (const [i, question] of questions.entries()) {
			await h.db.execute(sql`update qa_item set question = ${question} where id = ${i + 1}`);
			await h.db.execute(
				sql`update qa_item_version set question = ${question} where item_id = ${i + 1}`
			);
		}
		await h.db.execute(sql`analyze`);
		// No way by id: a walk of the order, then the pass over the items.
		Object.assign(SEARCH_TUNING, { firstRead: 0, walk: 1, fewMatches: 0 });
		for (const q of ['édeme', 'öDEM', 'σηψη', 'STRASSE', 'straße 100%', 'question 3']) {
			const expected = rowsOf<{ id: number }>(
				await h.db
					.execute(sql`select i.id from qa_item i join qa_item_version v on v.id = i.current_version_id
					where v.question ilike ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} order by left(i.question, 200), i.id`)
			).map((r) => Number(r.id));
			const page = await list(h.db, `q=${encodeURIComponent(q)}&sort=question&size=50`);
			expect(
				page.rows.map((r) => r.id),
				q
			).toEqual(expected);
			expect(expected.length, q).toBe(q === 'STRASSE' ? 0 : q === 'question 3' ? 3 : 1);
		}
	});

	it('pages a search in every sort as the unpaged matches, however the matches lie in the order', async () => {
		// 600 items, ten questions: "question 9" is the last tenth by question, "3 about sepsis" one
		// item in thirty, "about" every item, "levothyrox" the gold answer of one item in five. As
		// tuned, "about" is found by a walk (sorted by question, from its versions like the others);
		// narrowed, each search walks a page's length and then finds its matches by id (at most 30
		// versions) or in one pass over the items; walked, a walk that tests the gold answers fills
		// a page of "levothyrox".
		await seedTiedItems(h.db, 600);
		await h.db.execute(sql`analyze`);
		const matching = async (q: string, sort: (typeof ITEM_SORTS)[number], dir: 'asc' | 'desc') =>
			rowsOf<{ id: number }>(
				await h.db.execute(sql`
					select "qa_item"."id" as id from "qa_item" join qa_item_version v on v.id = "qa_item"."current_version_id"
					where v.question ilike ${`%${q}%`} or v.answer ilike ${`%${q}%`}
					order by ${sql.join(orderBy(sort, dir), sql`, `)}`)
			).map((r) => Number(r.id));
		const narrowed = { firstRead: 0, walk: 1, fewMatches: 30 };
		// A walk long enough to fill a page with matches of the answer alone.
		const walked = { firstRead: 0, walk: 10, fewMatches: 30 };
		for (const [tuning, q] of [
			...[tuned, narrowed].flatMap((t) =>
				['question 9', '3 about sepsis', 'about', 'levothyrox'].map((q) => [t, q] as const)
			),
			[walked, 'levothyrox'] as const
		]) {
			Object.assign(SEARCH_TUNING, tuning);
			for (const sort of ITEM_SORTS) {
				for (const dir of ['asc', 'desc'] as const) {
					const base = `q=${encodeURIComponent(q)}&sort=${sort}&dir=${dir}&size=10`;
					const expected = await matching(q, sort, dir);
					const label = `"${q}" ${sort} ${dir} (walk ${tuning.walk})`;
					if (q === 'about' || q === 'levothyrox') {
						// Many items match: the first two pages and the last.
						const first = await list(h.db, base);
						const second = await list(h.db, `${base}&after=${encodeURIComponent(first.next!)}`);
						const last = await list(h.db, `${base}&page=last`);
						expect(
							[...first.rows, ...second.rows].map((r) => r.id),
							label
						).toEqual(expected.slice(0, 20));
						expect(
							last.rows.map((r) => r.id),
							label
						).toEqual(expected.slice(-10));
						continue;
					}
					expect(expected.length, label).toBe(q === 'question 9' ? 60 : 20);
					const forwards: number[] = [];
					let page = await list(h.db, base);
					forwards.push(...page.rows.map((r) => r.id));
					while (page.next) {
						page = await list(h.db, `${base}&after=${encodeURIComponent(page.next)}`);
						forwards.push(...page.rows.map((r) => r.id));
					}
					expect(forwards, `${label} forwards`).toEqual(expected);
					const backwards: number[] = [];
					page = await list(h.db, `${base}&page=last`);
					backwards.unshift(...page.rows.map((r) => r.id));
					while (page.previous) {
						page = await list(h.db, `${base}&before=${encodeURIComponent(page.previous)}`);
						backwards.unshift(...page.rows.map((r) => r.id));
					}
					expect(new Set(backwards), `${label} backwards`).toEqual(new Set(expected));
					expect(backwards.slice(-10), `${label} last page`).toEqual(expected.slice(-10));
				}
			}
		}
	});
});

describeEachDb('item table counts', (h) => {
	it('counts exactly up to the limit and says what it knows above it', async () => {
		await seedTiedItems(h.db, 2 * EXACT_COUNT_LIMIT + 500);
		await h.db.execute(sql`analyze qa_item`);
		// A filtered set under the limit: exact.
		const lists = await list(h.db, 'type=list');
		expect(lists.total).toEqual({ kind: 'exact', n: 357 });
		// A filtered set over it: a lower bound, never a guess.
		expect((await list(h.db, 'held=no')).total).toEqual({
			kind: 'more-than',
			n: EXACT_COUNT_LIMIT
		});
		// The whole table: the planner's estimate, rounded to three figures, and labelled so.
		const all = await list(h.db, '');
		expect(all.total.kind).toBe('about');
		expect(Math.abs(all.total.n - 2500)).toBeLessThanOrEqual(100);
	});

	it('counts the whole table exactly while it is small', async () => {
		await seedTiedItems(h.db, 40);
		expect((await list(h.db, '')).total).toEqual({ kind: 'exact', n: 40 });
	});
});
