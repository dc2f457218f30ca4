import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { describeEachDb } from '../../db/testing';
import { seedUsers } from '../../fixtures/review';
import { seedVerification } from '../../fixtures/verification';
import { itemOutcome, type ItemStatus, type QaType, type Verdict } from '../../../constants';
import { verificationProgress } from './progress';

describeEachDb('verification progress', (h) => {
	it('counts states, outcomes and reviewers as one pass over every row would', async () => {
		// Verification under way: states, verdicts, amendments, disputes and notes holding items.
		// Items as an import leaves them (one primary task each), as the pages bench seeds them.
		await h.db.execute(sql`insert into dataset (name) values ('progress')`);
		await h.db.execute(sql`
			insert into qa_item (dataset_id, item_key, type, paragraph_id, question)
			select d.id, 'k-' || g, (enum_range(null::qa_type))[1 + g % 7], 'p' || g, 'Question ' || g
			from generate_series(1, 1200) g, dataset d`);
		await h.db.execute(sql`
			insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
			select id, 1, '{}'::jsonb, md5(id::text), type, question, 'True', 'import' from qa_item`);
		await h.db.execute(sql`
			update qa_item i set current_version_id = v.id from qa_item_version v where v.item_id = i.id`);
		await h.db.execute(
			sql`insert into review_task (item_id, round) select id, 'primary' from qa_item`
		);
		const reviewers = await seedUsers(h.db, 5);
		await seedVerification(
			h.db,
			reviewers.map((r) => r.id)
		);
		// A held item that is withdrawn, and one held by both a dispute and a note.
		await h.db.execute(sql`update qa_item set status = 'withdrawn' where id = 203`);
		await h.db.execute(sql`
			insert into feedback_note (item_id, item_version_id, author_id, category, body)
			select id, current_version_id, ${reviewers[0].id}, 'wording', 'both' from qa_item where id = 403`);

		const progress = await verificationProgress(h.db);

		// The reference: every item tested for being held, grouped with its state and verdict.
		const expected = rowsOf<{
			type: QaType;
			status: ItemStatus;
			final_verdict: Verdict | null;
			held: boolean;
			n: number;
		}>(
			await h.db.execute(sql`
				select type, status, final_verdict, (id in (select item_id from dispute where status in ('open', 'under_review'))
					or id in (select item_id from feedback_note where resolved_at is null)) as held, count(*)::int as n
				from qa_item group by 1, 2, 3, 4`)
		).map((r) => ({
			type: r.type,
			status: r.status,
			outcome: itemOutcome({ status: r.status, finalVerdict: r.final_verdict, held: r.held }),
			n: Number(r.n)
		}));
		const key = (r: { type: string; status: string; outcome: string }) =>
			`${r.type} ${r.status} ${r.outcome}`;
		const merged = (rows: typeof expected) => {
			const m = new Map<string, number>();
			for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + r.n);
			return [...m].sort(([a], [b]) => a.localeCompare(b));
		};
		expect(merged(progress.counted)).toEqual(merged(expected));
		expect(progress.counted.every((r) => r.n > 0)).toBe(true);
		expect(progress.byOutcome.find((o) => o.outcome === 'held')!.n).toBeGreaterThan(0);
		expect(progress.byState.reduce((n, s) => n + s.n, 0)).toBe(1200);

		const perReviewer = rowsOf<{
			pseudonym: string;
			name: string;
			reviews: number;
			median_ms: number | string | null;
		}>(
			await h.db.execute(sql`
				select u.pseudonym, u.display_name as name, count(*)::int as reviews,
					percentile_cont(0.5) within group (order by r.time_on_task_ms) as median_ms
				from review r join "user" u on u.id = r.reviewer_id
				where r.revision = 1
				group by u.id, u.pseudonym, u.display_name
				order by reviews desc, u.pseudonym`)
		).map((r) => ({
			pseudonym: r.pseudonym,
			name: r.name,
			reviews: Number(r.reviews),
			medianMs: r.median_ms === null ? null : Number(r.median_ms)
		}));
		expect(perReviewer.length).toBe(5);
		expect(progress.perReviewer).toEqual(perReviewer);
	});
});
