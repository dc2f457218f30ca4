import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { DESIGNS } from './designs/registry';
import { rowsOf } from '../../db/client';
import {
	ERROR_TYPES,
	TAGS,
	type ErrorType,
	type StudyDesign,
	type StudyState,
	type Tag
} from '../../../constants';

/** The pace of a study is measured over at most this window … */
export const PACE_WINDOW_HOURS = 24;
/** … or over the latest this many rankings, when that many fall inside the window. */
export const PACE_LATEST = 50;

/** When the study should have all its rankings at the recent pace, or why there is no estimate. */
export type FinishEstimate =
	| {
			at: Date;
			remaining: number;
			perHour: number;
			/** What the pace was measured on, e.g. "the 12 rankings submitted in the last 24 hours". */
			basis: string;
	  }
	| { at: null; reason: string };

const HOUR = 3_600_000;

/** "3 h 20 min", "45 min" */
function duration(ms: number): string {
	const minutes = Math.round(ms / 60_000);
	const h = Math.floor(minutes / 60);
	const m = minutes % 60;
	return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}

/**
 * Estimated finish from the recent pace: remaining rankings divided by the rate over the latest
 * PACE_LATEST rankings when they all fall in the last PACE_WINDOW_HOURS (a busy study), else over
 * the rankings of that window (which starts no earlier than the study's opening). `recent` holds
 * the submission times in the window, newest first (at least PACE_LATEST of them if there are).
 */
export function estimateFinish(input: {
	state: StudyState;
	openedAt: Date | null;
	remaining: number;
	now: Date;
	inWindow: number;
	recent: Date[];
	/** What a judgement is called in this study's design (plural: with an s). */
	noun?: string;
}): FinishEstimate {
	const { state, openedAt, remaining, now, inWindow, recent } = input;
	const noun = input.noun ?? 'ranking';
	if (state === 'draft' || !openedAt)
		return { at: null, reason: 'no estimate: the study has not opened' };
	if (remaining <= 0) return { at: null, reason: `no estimate needed: every ${noun} is in` };
	if (state !== 'open') return { at: null, reason: `no estimate: the study is ${state}` };
	const dayAgo = now.getTime() - PACE_WINDOW_HOURS * HOUR;
	const sinceOpening = openedAt.getTime() > dayAgo;
	const windowStart = Math.max(dayAgo, openedAt.getTime());
	const window = sinceOpening
		? `since the study opened ${duration(now.getTime() - windowStart)} ago`
		: `in the last ${PACE_WINDOW_HOURS} hours`;
	if (inWindow === 0) return { at: null, reason: `no estimate: no ${noun}s ${window}` };
	let count: number;
	let from: number;
	let basis: string;
	if (inWindow >= PACE_LATEST && recent.length >= PACE_LATEST) {
		count = PACE_LATEST;
		from = recent[PACE_LATEST - 1].getTime();
		basis = `the latest ${PACE_LATEST} ${noun}s, submitted in the last ${duration(now.getTime() - from)}`;
	} else {
		count = inWindow;
		from = windowStart;
		basis = `the ${count === 1 ? noun : `${count} ${noun}s`} submitted ${window}`;
	}
	// At least a minute, so a ranking submitted this very instant gives a finite rate.
	const span = Math.max(now.getTime() - from, 60_000);
	return {
		at: new Date(now.getTime() + Math.round((remaining * span) / count)),
		remaining,
		perHour: (count * HOUR) / span,
		basis
	};
}

export interface QuestionProgress {
	questionId: number;
	itemId: number;
	question: string;
	submitted: number;
	leased: number;
	openSlots: number;
}
export interface PhysicianProgress {
	physician: string;
	submitted: number;
	leased: number;
	medianSeconds: number | null;
}

/** What physicians said of one model's answers (or of the reference answer) in a study. */
export interface ModelJudgements {
	/** The model's name, or "reference" for the blinded gold answer. */
	model: string;
	/** Ranked answers of this model (one per submitted ranking that showed it). */
	answers: number;
	tags: Record<Tag, number>;
	/** Answers marked with each error type (an answer may have several). */
	errors: Record<ErrorType, number>;
}

/**
 * Per model: how many of its ranked answers were tagged good, okay and bad, and how many were
 * marked with each error type, over the rankings that count (exclusions and gold questions left
 * out). Reads one row per (model, tag, error-type set) and adds them up.
 */
export async function modelJudgements(db: Db, studyId: number): Promise<ModelJudgements[]> {
	const rows = rowsOf<{ model: string; tag: Tag; errorTypes: ErrorType[] | string; n: number }>(
		await db.execute(sql`
			select case when c.is_reference then 'reference' else m.name end as model, e.tag,
				e.error_types::text[] as "errorTypes", count(*)::int as n
			from ranking_entry e
			join ranking k on k.id = e.ranking_id
			join candidate c on c.id = e.candidate_id
			join study_question q on q.id = c.study_question_id
			left join model m on m.id = c.model_id
			where q.study_id = ${studyId} and not q.gold
				and (k.physician_id not in (select rater_id from exclusion where revoked_at is null)
					or judgement_counts(k.physician_id, q.study_id, k.submitted_at))
			group by 1, 2, 3`)
	);
	const byModel = new Map<string, ModelJudgements>();
	for (const r of rows) {
		let m = byModel.get(r.model);
		if (!m) {
			m = {
				model: r.model,
				answers: 0,
				tags: Object.fromEntries(TAGS.map((t) => [t, 0])) as Record<Tag, number>,
				errors: Object.fromEntries(ERROR_TYPES.map((t) => [t, 0])) as Record<ErrorType, number>
			};
			byModel.set(r.model, m);
		}
		m.answers += r.n;
		m.tags[r.tag] += r.n;
		for (const t of textArray(r.errorTypes)) m.errors[t as ErrorType] += r.n;
	}
	// Models by name, the reference last.
	return [...byModel.values()].sort(
		(a, b) =>
			Number(a.model === 'reference') - Number(b.model === 'reference') ||
			a.model.localeCompare(b.model)
	);
}

/** A text[] as either driver returns it: an array, or (unparsed) its literal `{a,b}`. */
function textArray(value: string[] | string): string[] {
	if (Array.isArray(value)) return value;
	const inner = value.replace(/^\{|\}$/g, '');
	return inner ? inner.split(',') : [];
}

/**
 * Per-question and per-physician progress of a study (pseudonyms, not names), and its estimated
 * finish at the recent pace.
 */
export async function studyProgress(db: Db, studyId: number, now = new Date()) {
	const questions = rowsOf<QuestionProgress>(
		await db.execute(sql`
			select q.id as "questionId", q.item_id as "itemId", coalesce(i.question, sq.question) as question,
				q.completed::int as submitted,
				(select count(*)::int from assignment a where a.study_question_id = q.id and a.state = 'leased' and a.lease_expires_at > now()) as leased,
				q.open_slots::int as "openSlots"
			from study_question q
			left join qa_item i on i.id = q.item_id
			left join set_question sq on sq.id = q.set_question_id
			where q.study_id = ${studyId}
			order by q.id`)
	);
	const physicians = rowsOf<PhysicianProgress>(
		await db.execute(sql`
			select u.pseudonym as physician,
				count(*) filter (where a.state = 'submitted')::int as submitted,
				count(*) filter (where a.state = 'leased' and a.lease_expires_at > now())::int as leased,
				(percentile_cont(0.5) within group (order by coalesce(r.time_on_task_ms, j.time_on_task_ms, p.time_on_task_ms, e.time_on_task_ms)) / 1000)::float8 as "medianSeconds"
			from assignment a
			join study_question q on q.id = a.study_question_id
			join "user" u on u.id = a.physician_id
			left join ranking r on r.assignment_id = a.id
			left join rubric_judgement j on j.assignment_id = a.id
			left join pairwise_judgement p on p.assignment_id = a.id
			left join evidence_assessment e on e.assignment_id = a.id and e.submitted_at is not null
			where q.study_id = ${studyId}
			group by u.pseudonym
			order by submitted desc, u.pseudonym`)
	);
	const [k] = rowsOf<{
		k: number;
		state: StudyState;
		design: StudyDesign;
		openedAt: string | Date | null;
	}>(
		await db.execute(
			sql`select raters_per_question::int as k, state, design, opened_at as "openedAt" from study where id = ${studyId}`
		)
	);
	const noun = DESIGNS[k?.design ?? 'ranking'].noun;
	const since = new Date(now.getTime() - PACE_WINDOW_HOURS * HOUR).toISOString();
	// The latest submissions of the window and, in the same query, how many the window holds.
	const recent = rowsOf<{ at: string | Date; inWindow: number }>(
		await db.execute(sql`
			select a.submitted_at as at, count(*) over ()::int as "inWindow"
			from assignment a
			join study_question q on q.id = a.study_question_id
			where q.study_id = ${studyId} and a.state = 'submitted' and a.submitted_at > ${since}
				and a.submitted_at <= ${now.toISOString()}
			order by a.submitted_at desc
			limit ${PACE_LATEST}`)
	);
	const target = (k?.k ?? 0) * questions.length;
	const submitted = questions.reduce((n, q) => n + q.submitted, 0);
	// How many questions have 0, 1, …, k submitted rankings.
	const histogram = Array.from({ length: (k?.k ?? 0) + 1 }, (_, n) => ({
		label: `${n} of ${k?.k ?? 0} ${noun}s`,
		value: questions.filter((q) => q.submitted === n).length
	}));
	const estimate = estimateFinish({
		state: k?.state ?? 'draft',
		openedAt: k?.openedAt ? new Date(k.openedAt) : null,
		remaining: target - submitted,
		now,
		inWindow: recent[0]?.inWindow ?? 0,
		recent: recent.map((r) => new Date(r.at)),
		noun
	});
	const models = await modelJudgements(db, studyId);
	return { questions, physicians, submitted, target, histogram, estimate, models, noun };
}
