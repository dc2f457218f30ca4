import { asc, count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { assignment, auditEvent, ranking, rankingEntry, studyQuestion } from '../../db/schema';
import { DomainError } from '../../errors';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { claimNext, getAssignmentView } from './queue';
import { changeStudyState, createStudy } from './studies';
import { submitRanking, submitRankingAndNext, type Submission } from './rankings';

/** The DomainError a refused submission throws (fails the test if it was stored instead). */
async function refusal(submitting: Promise<unknown>): Promise<DomainError> {
	const outcome = await submitting.then(
		() => null,
		(e: unknown) => e
	);
	expect(outcome).toBeInstanceOf(DomainError);
	return outcome as DomainError;
}

describeEachDb('submitting rankings', (h) => {
	let organiser: string;
	let doctor: string;
	let other: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		// Three physician accounts: the studies here ask for the default k = 3.
		[doctor, other] = await insertUsers(h.db, 3, ['physician']);
	});

	async function setUp(options: { allowTies?: boolean } = {}) {
		const { modelIds } = await seedRankingContent(h.db, { count: 2, models: ['m1', 'm2'] });
		const study = await createStudy(
			h.db,
			{ name: 'R', selection: { types: [] }, modelIds, ...options },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		const claim = await claimNext(h.db, study.id, doctor);
		if (claim.status !== 'assigned') throw new Error('expected an assignment');
		const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
		const ids = view.candidates.map((c) => c.id);
		const good = (over: Partial<Submission> = {}): Submission => ({
			assignmentId: claim.publicId,
			idempotencyKey: `key-${claim.publicId}`,
			timeOnTaskMs: 42_000,
			entries: ids.map((id, i) => ({
				candidateId: id,
				rank: i + 1,
				tag: i === 0 ? 'good' : 'okay',
				comment: i === 1 ? ' clear ' : ''
			})),
			...over
		});
		return { studyId: study.id, publicId: claim.publicId, ids, good };
	}

	const stored = async () => {
		const [[r], [e]] = await Promise.all([
			h.db.select({ n: count() }).from(ranking),
			h.db.select({ n: count() }).from(rankingEntry)
		]);
		return { rankings: r.n, entries: e.n };
	};

	it('stores ranks, tags, comments, displayed order and time on task, idempotently', async () => {
		const { good, publicId } = await setUp();
		const first = await submitRanking(h.db, doctor, good());
		expect(first.duplicate).toBe(false);
		const again = await submitRanking(h.db, doctor, good());
		expect(again).toEqual({ ...first, duplicate: true });
		expect(await stored()).toEqual({ rankings: 1, entries: 3 });
		const [r] = await h.db.select().from(ranking);
		expect(r.timeOnTaskMs).toBe(42_000);
		expect(r.displayedOrder).toHaveLength(3);
		const entries = await h.db
			.select()
			.from(rankingEntry)
			.orderBy(asc(rankingEntry.displayPosition));
		expect(entries.map((e) => [e.displayPosition, e.rank, e.tag, e.comment])).toEqual([
			[1, 1, 'good', null],
			[2, 2, 'okay', 'clear'],
			[3, 3, 'okay', null]
		]);
		expect(entries.map((e) => e.candidateId)).toEqual(r.displayedOrder);
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, publicId));
		expect(a.state).toBe('submitted');
		const [q] = await h.db
			.select()
			.from(studyQuestion)
			.where(eq(studyQuestion.id, a.studyQuestionId));
		expect(q.completed).toBe(1);
		// A second submission with a new key is refused.
		const twice = refusal(submitRanking(h.db, doctor, good({ idempotencyKey: 'another-key-1' })));
		await expect(twice).resolves.toMatchObject({ code: 'already_submitted' });
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'ranking.submit'));
		expect(event).toMatchObject({
			actorId: doctor,
			objectType: 'ranking',
			objectId: String(first.rankingId)
		});
		expect((event.after as { entries: unknown[] }).entries).toHaveLength(3);
	});

	it('refuses bad rankings with a clear reason and stores nothing', async () => {
		const { good, ids } = await setUp();
		const base = good();
		const cases: [Submission, RegExp][] = [
			[{ ...base, entries: base.entries.map((e) => ({ ...e, rank: 1 })) }, /more than once/],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i + 2 })) },
				/between 1 and 3/
			],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i ? e.rank : null })) },
				/not ranked/
			],
			[{ ...base, entries: base.entries.slice(1) }, /Rank all 3 responses/],
			[{ ...base, entries: [...base.entries, base.entries[0]] }, /submitted twice/],
			[
				{
					...base,
					entries: base.entries.map((e, i) => ({
						...e,
						candidateId: i ? e.candidateId : 'zzzzzzzzzzzz'
					}))
				},
				/not part of this question/
			],
			[
				{ ...base, entries: base.entries.map((e) => ({ ...e, tag: 'great' as never })) },
				/good, okay or bad/
			],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, tag: i ? e.tag : null })) },
				/Tag every response/
			]
		];
		for (const [submission, reason] of cases) {
			const e = await refusal(submitRanking(h.db, doctor, submission));
			expect(e.code, String(reason)).toBe('invalid');
			expect(e.problems.join(' ')).toMatch(reason);
		}
		expect(ids).toHaveLength(3);
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('refuses candidates of another assignment and assignments of another physician', async () => {
		const { good } = await setUp();
		const otherClaim = await claimNext(
			h.db,
			(await h.db.select().from(studyQuestion))[0].studyId,
			other
		);
		if (otherClaim.status !== 'assigned') throw new Error('expected an assignment');
		const otherView = (await getAssignmentView(h.db, otherClaim.publicId, other))!;
		const foreign = good();
		foreign.entries[0] = { ...foreign.entries[0], candidateId: otherView.candidates[0].id };
		const r1 = await refusal(submitRanking(h.db, doctor, foreign));
		expect(r1.code).toBe('invalid');
		const r2 = await refusal(submitRanking(h.db, other, good()));
		expect(r2.code).toBe('not_found');
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('asks to confirm inconsistent tags, then stores when confirmed', async () => {
		const { good } = await setUp();
		const base = good();
		const inconsistent = {
			...base,
			entries: base.entries.map((e, i) => ({
				...e,
				tag: (i === 0 ? 'bad' : 'good') as 'bad' | 'good'
			}))
		};
		const ask = await refusal(submitRanking(h.db, doctor, inconsistent));
		expect(ask.code).toBe('needs_confirmation');
		expect(ask.problems[0]).toMatch(/Response A is ranked above Response B/);
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
		const ok = await submitRanking(h.db, doctor, { ...inconsistent, confirmInconsistent: true });
		expect(ok.duplicate).toBe(false);
		expect(await stored()).toEqual({ rankings: 1, entries: 3 });
	});

	it('accepts competition-style ties only when the study allows them', async () => {
		const { good } = await setUp({ allowTies: true });
		const base = good();
		const tied = { ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i < 2 ? 1 : 3 })) };
		expect((await submitRanking(h.db, doctor, tied)).duplicate).toBe(false);
		const ranks = await h.db.select({ rank: rankingEntry.rank }).from(rankingEntry);
		expect(ranks.map((r) => r.rank).sort()).toEqual([1, 1, 3]);
	});

	it('refuses a closed study and an expired lease', async () => {
		const { good, studyId } = await setUp();
		const late = new Date(Date.now() + 31 * 60_000);
		const expired = await refusal(submitRanking(h.db, doctor, good(), late));
		expect(expired.code).toBe('not_leased');
		await changeStudyState(h.db, studyId, 'close', organiser);
		const closed = await refusal(submitRanking(h.db, doctor, good()));
		expect(closed.code).toBe('locked');
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('submits and leases the next question in one transaction, and a refusal leases nothing', async () => {
		const { good, publicId } = await setUp();
		const bad = good();
		bad.entries[0] = { ...bad.entries[0], tag: null };
		const e = await refusal(submitRankingAndNext(h.db, doctor, bad));
		expect(e.problems.join(' ')).toMatch(/Tag every response/);
		expect(await h.db.select().from(assignment)).toHaveLength(1);
		const done = await submitRankingAndNext(h.db, doctor, good());
		expect(done.duplicate).toBe(false);
		expect(done.next.status).toBe('assigned');
		if (done.next.status === 'assigned') expect(done.next.publicId).not.toBe(publicId);
		const states = await h.db.select({ state: assignment.state }).from(assignment);
		expect(states.map((a) => a.state).sort()).toEqual(['leased', 'submitted']);
	});
});
