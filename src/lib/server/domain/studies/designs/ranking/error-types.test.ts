import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ERROR_TYPES, type ErrorType, type Tag } from '../../../../../constants';
import { rowsOf } from '../../../../db/client';
import { auditEvent, rankingEntry } from '../../../../db/schema';
import { describeEachDb } from '../../../../db/testing';
import { DomainError } from '../../../../errors';
import { insertUsers, seedRankingContent } from '../../../../fixtures/ranking';
import { parseCsv } from '../../../../csv';
import { EXPORT_COLUMNS, exportRankings, rankingsCsv } from '../../export';
import { modelJudgements } from '../../progress';
import { claimNext, getAssignmentView } from '../../queue';
import { rankingFormSchema, submitRanking, submitRankingAndNext } from './rankings';
import { changeStudyState, createStudy } from '../../studies';

async function refusal(submitting: Promise<unknown>): Promise<DomainError> {
	const outcome = await submitting.then(
		() => null,
		(e: unknown) => e
	);
	expect(outcome).toBeInstanceOf(DomainError);
	return outcome as DomainError;
}

describe('the ranking form', () => {
	it('reads one or several checked error types per response', () => {
		const form = rankingFormSchema.parse({
			idempotencyKey: 'k-12345678',
			confirm: '0',
			rank: { a: '1', b: '2', c: '3' },
			tag: { a: 'good', b: 'okay', c: 'bad' },
			errorType: { b: 'omission', c: ['intrinsic_hallucination', 'other'] }
		});
		const byId = Object.fromEntries(form.entries.map((e) => [e.candidateId, e.errorTypes]));
		expect(byId).toEqual({ a: [], b: ['omission'], c: ['intrinsic_hallucination', 'other'] });
	});
});

describeEachDb('error types on ranked answers', (h) => {
	let organiser: string;
	let doctors: string[];
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		doctors = await insertUsers(h.db, 2, ['physician']);
	});

	/** An open study of one question (m1, m2 and the reference), k = 2. */
	async function openStudy() {
		const { modelIds } = await seedRankingContent(h.db, { count: 1, models: ['m1', 'm2'] });
		const study = await createStudy(
			h.db,
			{ name: 'Errors', selection: { types: [] }, modelIds, ratersPerQuestion: 2 },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		return study.id;
	}

	/** The physician's assignment: its public id and, per shown answer, its model (server side). */
	async function assigned(studyId: number, doctor: string) {
		const claim = await claimNext(h.db, studyId, doctor);
		if (claim.status !== 'assigned') throw new Error('expected an assignment');
		const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
		const models = rowsOf<{ id: string; model: string }>(
			await h.db.execute(sql`
				select ac.public_id as id, case when c.is_reference then 'reference' else m.name end as model
				from assignment_candidate ac
				join assignment a on a.id = ac.assignment_id
				join candidate c on c.id = ac.candidate_id
				left join model m on m.id = c.model_id
				where a.public_id = ${claim.publicId}`)
		);
		const idOf = (model: string) => models.find((m) => m.model === model)!.id;
		return { publicId: claim.publicId, ids: view.candidates.map((c) => c.id), idOf };
	}

	/** Entries ranking in `order` (models best first), with tags and error types per model. */
	function entries(
		a: Awaited<ReturnType<typeof assigned>>,
		judged: Record<string, { tag: Tag; errors?: ErrorType[] }>
	) {
		return Object.entries(judged).map(([model, j], i) => ({
			candidateId: a.idOf(model),
			rank: i + 1,
			tag: j.tag,
			errorTypes: j.errors
		}));
	}

	it('stores error types with an okay or bad tag, once each, and records them in the audit event', async () => {
		const studyId = await openStudy();
		const a = await assigned(studyId, doctors[0]);
		await submitRanking(h.db, doctors[0], {
			assignmentId: a.publicId,
			idempotencyKey: `key-${a.publicId}`,
			entries: entries(a, {
				reference: { tag: 'good' },
				m1: { tag: 'okay', errors: ['omission', 'omission'] },
				m2: { tag: 'bad', errors: ['other', 'intrinsic_hallucination'] }
			})
		});
		const stored = await h.db
			.select({ tag: rankingEntry.tag, errorTypes: rankingEntry.errorTypes })
			.from(rankingEntry)
			.orderBy(rankingEntry.rank);
		expect(stored).toEqual([
			{ tag: 'good', errorTypes: [] },
			{ tag: 'okay', errorTypes: ['omission'] },
			// In the list's order, whatever order they were checked in.
			{ tag: 'bad', errorTypes: ['intrinsic_hallucination', 'other'] }
		]);
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'ranking.submit'));
		const after = event.after as { entries: { rank: number; errorTypes: string[] }[] };
		expect(after.entries.map((e) => [e.rank, e.errorTypes])).toEqual([
			[1, []],
			[2, ['omission']],
			[3, ['intrinsic_hallucination', 'other']]
		]);
	});

	it('refuses error types on a good answer and unknown error types, storing nothing', async () => {
		const studyId = await openStudy();
		const a = await assigned(studyId, doctors[0]);
		const base = { assignmentId: a.publicId, idempotencyKey: `key-${a.publicId}` };
		const onGood = await refusal(
			submitRanking(h.db, doctors[0], {
				...base,
				entries: entries(a, {
					reference: { tag: 'good', errors: ['omission'] },
					m1: { tag: 'okay' },
					m2: { tag: 'bad' }
				})
			})
		);
		expect(onGood.code).toBe('invalid');
		expect(onGood.message).toMatch(/okay or bad tag only/);
		const unknown = await refusal(
			submitRanking(h.db, doctors[0], {
				...base,
				entries: entries(a, {
					reference: { tag: 'good' },
					m1: { tag: 'okay', errors: ['made_up' as ErrorType] },
					m2: { tag: 'bad' }
				})
			})
		);
		expect(unknown.code).toBe('invalid');
		expect(unknown.message).toMatch(/error types/);
		expect(await h.db.select().from(rankingEntry)).toHaveLength(0);
	});

	it('the database itself refuses an error type on a good tag or off the list', async () => {
		const studyId = await openStudy();
		const a = await assigned(studyId, doctors[0]);
		await submitRanking(h.db, doctors[0], {
			assignmentId: a.publicId,
			idempotencyKey: `key-${a.publicId}`,
			entries: entries(a, { reference: { tag: 'good' }, m1: { tag: 'okay' }, m2: { tag: 'bad' } })
		});
		const attempt = (statement: ReturnType<typeof sql>) =>
			h.db
				.transaction(async (tx) => tx.execute(statement))
				.then(
					() => 'written',
					(e: Error) => String(e.cause ?? e.message)
				);
		expect(
			await attempt(sql`update ranking_entry set error_types = '{omission}' where tag = 'good'`)
		).toMatch(/error_types_need_fault/);
		expect(
			await attempt(sql`update ranking_entry set error_types = '{made_up}' where tag = 'bad'`)
		).toMatch(/invalid input value for enum/);
		expect(
			await attempt(sql`update ranking_entry set error_types = '{omission}' where tag = 'bad'`)
		).toBe('written');
	});

	it('exports error types and counts them per model exactly', async () => {
		const studyId = await openStudy();
		const one = await assigned(studyId, doctors[0]);
		// The one-statement path: submit and lease the next (none is left for this physician).
		await submitRankingAndNext(h.db, doctors[0], {
			assignmentId: one.publicId,
			idempotencyKey: `key-${one.publicId}`,
			entries: entries(one, {
				reference: { tag: 'good' },
				m1: { tag: 'okay', errors: ['omission'] },
				m2: { tag: 'bad', errors: ['intrinsic_hallucination', 'extrinsic_hallucination'] }
			})
		});
		const two = await assigned(studyId, doctors[1]);
		await submitRanking(h.db, doctors[1], {
			assignmentId: two.publicId,
			idempotencyKey: `key-${two.publicId}`,
			confirmInconsistent: true,
			entries: entries(two, {
				m2: { tag: 'bad', errors: ['intrinsic_hallucination'] },
				reference: { tag: 'good' },
				m1: { tag: 'bad' }
			})
		});

		const rows = await exportRankings(h.db, studyId);
		const errorsOf = (physicianRow: number, model: string) =>
			rows.filter((r) => r.model === model)[physicianRow].error_types;
		expect(errorsOf(0, 'm2')).toEqual(['intrinsic_hallucination', 'extrinsic_hallucination']);
		expect(errorsOf(0, 'm1')).toEqual(['omission']);
		expect(errorsOf(1, 'm1')).toEqual([]);
		const csv = parseCsv(rankingsCsv(rows));
		const col = EXPORT_COLUMNS.indexOf('error_types');
		const modelCol = EXPORT_COLUMNS.indexOf('model');
		const m2Cells = csv
			.slice(1)
			.filter((r) => r[modelCol] === 'm2')
			.map((r) => r[col]);
		expect(m2Cells).toEqual([
			'intrinsic_hallucination;extrinsic_hallucination',
			'intrinsic_hallucination'
		]);

		const none = Object.fromEntries(ERROR_TYPES.map((t) => [t, 0]));
		expect(await modelJudgements(h.db, studyId)).toEqual([
			{
				model: 'm1',
				answers: 2,
				tags: { good: 0, okay: 1, bad: 1 },
				errors: { ...none, omission: 1 }
			},
			{
				model: 'm2',
				answers: 2,
				tags: { good: 0, okay: 0, bad: 2 },
				errors: { ...none, intrinsic_hallucination: 2, extrinsic_hallucination: 1 }
			},
			{ model: 'reference', answers: 2, tags: { good: 2, okay: 0, bad: 0 }, errors: none }
		]);
	});
});
