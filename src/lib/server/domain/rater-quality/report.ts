// The rater-quality report of one study: per rater and per institution, gold accuracy, agreement
// with peers, a Dawid–Skene competence, time on task, position bias and week-by-week drift. Pure
// statistics from src/lib/stats; this file only reads the study and assembles.
import { asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { institution, study, user } from '../../db/schema';
import { dawidSkene, type AnnotatorLabel } from '../../../stats/annotators';
import {
	byIsoWeek,
	fastThreshold,
	firstShownRankedFirst,
	leftPreference,
	peerAgreement,
	peerKappa,
	proportion,
	timeOnTask,
	type FirstShownBias,
	type LeftBias,
	type PeerAgreement,
	type Proportion,
	type TimeOnTask,
	type UnitLabel
} from '../../../stats/rater-quality';
import type { Stat } from '../../../stats/types';
import { defined, undefinedStat } from '../../../stats/types';
import {
	MIN_CHECKS_TO_FLAG,
	goldAnswers,
	reviewCheckScores,
	reviewerRoundSettings,
	scoreAgainstGold,
	studyLabels,
	type GoldScore
} from '../quality';
import type { StudyDesign } from '../../../constants';
import { reviewCounts } from '../exclusions';

/** A rater is flagged for position bias when the test against no bias gives p below this. */
export const POSITION_BIAS_P = 0.01;
/** A rater is flagged for speed when at least this share of their judgements is implausibly fast. */
export const FAST_RATER_SHARE = 0.2;
/** Bootstrap resamples of every peer-agreement interval. */
export const REPORT_RESAMPLES = 1000;

export type PositionBias =
	| ({ kind: 'left' } & LeftBias)
	| ({ kind: 'first' } & FirstShownBias)
	| { kind: 'none'; reason: string };

export interface WeekFigures {
	week: string;
	judgements: number;
	gold: Proportion;
	peer: Omit<PeerAgreement, 'interval'>;
}

export interface QualityFigures {
	judgements: number;
	gold: Proportion;
	peer: PeerAgreement;
	competence: Stat & { n: number };
	time: TimeOnTask;
	position: PositionBias;
	weeks: WeekFigures[];
	flags: string[];
}

export interface RaterQuality extends QualityFigures {
	raterId: string;
	pseudonym: string;
	displayName: string;
	institution: string;
}

export interface InstitutionQuality extends QualityFigures {
	institutionId: number;
	institution: string;
	raters: number;
}

/** Whose judgements a report reads: a benchmark study's raters, or a dataset's reviewers. */
export type Judged = StudyDesign | 'verification';

export interface RaterQualityReport {
	/** The study, or null for a dataset's reviewers (then `datasetId` is set). */
	studyId: number | null;
	datasetId: number | null;
	name: string;
	design: Judged;
	passMark: number;
	thresholdMs: number;
	seed: string;
	resamples: number;
	raters: RaterQuality[];
	institutions: InstitutionQuality[];
}

/** The benchmark studies an organiser can read the report of, newest first. */
export async function benchmarkStudies(db: Db) {
	return db
		.select({ id: study.id, name: study.name, design: study.design, state: study.state })
		.from(study)
		.where(eq(study.purpose, 'benchmark'))
		.orderBy(sql`${study.id} desc`);
}

/**
 * Which Dawid–Skene model a label belongs to: labels of the same kind (every answer's tag, every
 * answer's rank, one rubric sub-aspect, the overall preference, one aspect's preference, one
 * evidence relation) share their categories, so the model's part `<answer>/` or `s<n>/` is
 * dropped: `gpt-4o/tag` → `tag`, `s3/relevance` → `relevance`; `preferred…` and `answers` stay.
 */
export function labelFamily(key: string): string {
	if (key.startsWith('preferred') || !key.includes('/')) return key;
	return key.slice(key.indexOf('/') + 1);
}

interface Subject {
	id: string;
	/** Rater ids it is made of. */
	members: Set<string>;
}

interface Inputs {
	live: UnitLabel[];
	liveRaw: {
		raterId: string;
		assignmentId: number;
		submittedAt: Date;
		timeOnTaskMs: number | null;
	}[];
	gold: GoldScore[];
	left: Map<string, { left: number; right: number }>;
	firsts: Map<string, { answers: number; firstShownRankedFirst: boolean }[]>;
	competence: Map<string, { value: number; n: number }[]>;
	thresholdMs: number;
	passMark: number;
	design: Judged;
	/** Why gold accuracy is undefined for a subject without gold checks. */
	noGold: string;
	boot: { resamples: number; seed: string };
}

function figures(s: Subject, all: Inputs): QualityFigures {
	const mine = <T extends { raterId: string }>(xs: T[]) =>
		xs.filter((x) => s.members.has(x.raterId));
	// Peers are the raters outside the subject: a rater's own labels under another name (an
	// institution's raters among themselves) are not agreement with others.
	const withAssignment = all.live.map((l) => (s.members.has(l.rater) ? { ...l, rater: s.id } : l));
	const relabelled = withAssignment.map((l) => ({ ...l, question: l.question.split('#')[0] }));
	const judgements = new Map<number, (typeof all.liveRaw)[number]>();
	for (const j of mine(all.liveRaw)) judgements.set(j.assignmentId, j);
	const gold = mine(all.gold);
	const goldOf = (xs: GoldScore[]) =>
		proportion(
			xs.reduce((n, x) => n + x.matched, 0),
			xs.reduce((n, x) => n + x.total, 0),
			all.noGold
		);
	const times = [...judgements.values()].flatMap((j) =>
		j.timeOnTaskMs === null ? [] : [j.timeOnTaskMs]
	);
	const time = timeOnTask(times, all.thresholdMs);

	let position: PositionBias;
	if (all.design === 'pairwise') {
		let left = 0;
		let right = 0;
		for (const m of s.members) {
			left += all.left.get(m)?.left ?? 0;
			right += all.left.get(m)?.right ?? 0;
		}
		position = { kind: 'left', ...leftPreference(left, right) };
	} else if (all.design === 'ranking')
		position = {
			kind: 'first',
			...firstShownRankedFirst([...s.members].flatMap((m) => all.firsts.get(m) ?? []))
		};
	else
		position = {
			kind: 'none',
			reason:
				all.design === 'verification'
					? 'a reviewer sees one QA pair at a time'
					: 'the design shows one answer at a time'
		};

	const parts = [...s.members].flatMap((m) => all.competence.get(m) ?? []);
	const n = parts.reduce((a, p) => a + p.n, 0);
	const competence =
		n === 0
			? { ...undefinedStat('no Dawid–Skene model could be fitted (see the study’s labels)'), n }
			: { ...defined(parts.reduce((a, p) => a + p.value * p.n, 0) / n), n };

	const weekOf = new Map<number, string>();
	const byWeek = byIsoWeek([...judgements.values()], (j) => j.submittedAt);
	for (const [w, js] of byWeek) for (const j of js) weekOf.set(j.assignmentId, w);
	const goldWeeks = byIsoWeek(gold, (g) => g.submittedAt);
	const weeks = [...new Set([...byWeek.map(([w]) => w), ...goldWeeks.map(([w]) => w)])]
		.sort()
		.map((week) => {
			const inWeek = new Set(
				[...judgements.values()]
					.filter((j) => weekOf.get(j.assignmentId) === week)
					.map((j) => String(j.assignmentId))
			);
			return {
				week,
				judgements: inWeek.size,
				gold: goldOf(goldWeeks.find(([w]) => w === week)?.[1] ?? []),
				peer: peerKappa(
					withAssignment.filter((l) => l.rater !== s.id || inWeek.has(l.question.split('#')[1])),
					s.id
				)
			};
		});

	const peer = peerAgreement(relabelled, s.id, { ...all.boot, seed: `${all.boot.seed}:${s.id}` });
	const goldAll = goldOf(gold);
	const flags: string[] = [];
	const checks = new Set(gold.map((g) => g.assignmentId)).size;
	if (
		goldAll.share.value !== null &&
		checks >= MIN_CHECKS_TO_FLAG &&
		goldAll.share.value < all.passMark
	)
		flags.push(`gold accuracy below the pass mark (${Math.round(all.passMark * 100)} %)`);
	if (time.n > 0 && time.fast / time.n >= FAST_RATER_SHARE)
		flags.push(
			`${time.fast} of ${time.n} judgements faster than ${Math.round(all.thresholdMs / 1000)} s`
		);
	if (
		position.kind === 'left' &&
		position.pValue.value !== null &&
		position.pValue.value < POSITION_BIAS_P
	)
		flags.push(`prefers the ${(position.share.value ?? 0) > 0.5 ? 'left' : 'right'} answer`);
	if (
		position.kind === 'first' &&
		position.low !== null &&
		position.chance !== null &&
		position.low > position.chance
	)
		flags.push('ranks the first-shown answer first more than chance');
	return {
		judgements: judgements.size,
		gold: goldAll,
		peer,
		competence,
		time,
		position,
		weeks,
		flags
	};
}

/**
 * Every rater's and every institution's quality figures on a benchmark study, from the counted
 * judgements of its live questions (agreement, competence, time, position) and of its gold
 * questions (accuracy). Deterministic: the bootstrap seed is `rater-quality-<study id>` unless
 * given. Null when the study does not exist.
 */
export async function raterQualityReport(
	db: Db,
	opts: { studyId: number; seed?: string; resamples?: number }
): Promise<RaterQualityReport | null> {
	const [s] = await db.select().from(study).where(eq(study.id, opts.studyId));
	if (!s) return null;
	const boot = {
		resamples: opts.resamples ?? REPORT_RESAMPLES,
		seed: opts.seed ?? `rater-quality-${s.id}`
	};
	const labels = await studyLabels(db, s.id, { questions: 'live', counted: true });
	// A pairwise question is judged pair by pair: the unit is the pair, whichever side each was on.
	const pairOf = new Map<number, string>();
	if (s.design === 'pairwise')
		for (const r of rowsOf<{ id: number | string; pair: string }>(
			await db.execute(sql`select j.assignment_id as id,
					least(j.left_candidate_id, j.right_candidate_id) || '-' ||
					greatest(j.left_candidate_id, j.right_candidate_id) as pair
				from pairwise_judgement j
				join assignment a on a.id = j.assignment_id
				join study_question q on q.id = a.study_question_id
				where q.study_id = ${s.id}`)
		))
			pairOf.set(Number(r.id), r.pair);
	const unitOf = (l: (typeof labels)[number]) =>
		`${l.questionId}/${pairOf.has(l.assignmentId) ? `${pairOf.get(l.assignmentId)}/` : ''}${l.key}`;
	// A unit is one key of one question; the question carries the assignment so a week's slice can
	// keep the rater's own judgements of that week (`<question>#<assignment>`).
	// The bootstrap resamples the benchmark's questions: a question of a set (or an item) whose
	// pairs are separate study questions in a pairwise study moves as one.
	const clusterOf = new Map<number, string>();
	for (const r of rowsOf<{ id: number | string; cluster: string }>(
		await db.execute(sql`select id, coalesce('s' || set_question_id, 'i' || item_id, 'q' || id) as cluster
			from study_question where study_id = ${s.id}`)
	))
		clusterOf.set(Number(r.id), r.cluster);
	const live: UnitLabel[] = labels.map((l) => ({
		question: `${clusterOf.get(l.questionId) ?? l.questionId}#${l.assignmentId}`,
		unit: unitOf(l),
		rater: l.raterId,
		label: l.label
	}));
	const gold = scoreAgainstGold(
		await studyLabels(db, s.id, { questions: 'gold', counted: true }),
		await goldAnswers(db, s.id)
	);

	const raw = new Map<number, Inputs['liveRaw'][number]>();
	for (const l of labels) raw.set(l.assignmentId, l);
	const liveRaw = [...raw.values()];
	const thresholdMs = fastThreshold(
		liveRaw.flatMap((j) => (j.timeOnTaskMs === null ? [] : [j.timeOnTaskMs]))
	);

	const competence = new Map<string, { value: number; n: number }[]>();
	const families = new Map<string, AnnotatorLabel[]>();
	for (const l of labels) {
		const f = labelFamily(l.key);
		families.set(f, [
			...(families.get(f) ?? []),
			{ item: unitOf(l), annotator: l.raterId, label: l.label }
		]);
	}
	for (const [, family] of [...families].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
		const fit = dawidSkene(family);
		if (!fit.ok) continue;
		for (const a of fit.annotators)
			if (a.competence.value !== null)
				competence.set(a.annotator, [
					...(competence.get(a.annotator) ?? []),
					{ value: a.competence.value, n: a.n }
				]);
	}

	const left = new Map<string, { left: number; right: number }>();
	const firsts = new Map<string, { answers: number; firstShownRankedFirst: boolean }[]>();
	if (s.design === 'pairwise')
		for (const r of rowsOf<{ rater: string; left: number | string; right: number | string }>(
			await db.execute(sql`select j.rater_id as rater,
					count(*) filter (where j.outcome = 'left') as left,
					count(*) filter (where j.outcome = 'right') as right
				from pairwise_judgement j
				join assignment a on a.id = j.assignment_id
				join study_question q on q.id = a.study_question_id
				where q.study_id = ${s.id} and not q.gold and a.state = 'submitted'
					and judgement_counts(a.physician_id, q.study_id, a.submitted_at)
				group by j.rater_id`)
		))
			left.set(r.rater, { left: Number(r.left), right: Number(r.right) });
	if (s.design === 'ranking')
		for (const r of rowsOf<{ rater: string; answers: number | string; first: boolean }>(
			await db.execute(sql`select k.physician_id as rater, count(*) as answers,
					bool_or(e.display_position = p.first_shown and e.rank = p.best) as first
				from ranking k
				join assignment a on a.id = k.assignment_id
				join study_question q on q.id = a.study_question_id
				join ranking_entry e on e.ranking_id = k.id
				join (select ranking_id, min(display_position) as first_shown, min(rank) as best
					from ranking_entry group by ranking_id) p on p.ranking_id = k.id
				where q.study_id = ${s.id} and not q.gold and a.state = 'submitted'
					and judgement_counts(a.physician_id, q.study_id, a.submitted_at)
				group by k.id, k.physician_id
				order by k.id`)
		))
			firsts.set(r.rater, [
				...(firsts.get(r.rater) ?? []),
				{ answers: Number(r.answers), firstShownRankedFirst: Boolean(r.first) }
			]);

	const inputs: Inputs = {
		live,
		liveRaw,
		gold,
		left,
		firsts,
		competence,
		thresholdMs,
		passMark: s.passMark,
		design: s.design,
		noGold: 'no gold check yet',
		boot
	};
	return {
		...(await assemble(db, inputs)),
		studyId: s.id,
		datasetId: null,
		name: s.name,
		design: s.design,
		passMark: s.passMark,
		thresholdMs,
		seed: boot.seed,
		resamples: boot.resamples
	};
}

/** Every rater's and every institution's figures from the inputs, with their names. */
async function assemble(
	db: Db,
	{ liveRaw, gold, ...inputs }: Inputs
): Promise<Pick<RaterQualityReport, 'raters' | 'institutions'>> {
	const people = await db
		.select({
			id: user.id,
			pseudonym: user.pseudonym,
			displayName: user.displayName,
			institutionId: institution.id,
			institution: institution.name
		})
		.from(user)
		.innerJoin(institution, eq(institution.id, user.institutionId))
		.orderBy(asc(user.pseudonym));
	const raterIds = new Set([...liveRaw.map((j) => j.raterId), ...gold.map((g) => g.raterId)]);
	const raters = people.filter((p) => raterIds.has(p.id));
	const institutions = [...new Map(raters.map((r) => [r.institutionId, r.institution]))]
		.sort((a, b) => a[1].localeCompare(b[1]))
		.map(([id, name]) => {
			const members = new Set(raters.filter((r) => r.institutionId === id).map((r) => r.id));
			return {
				institutionId: id,
				institution: name,
				raters: members.size,
				...figures({ id: `institution:${id}`, members }, { liveRaw, gold, ...inputs })
			};
		});
	return {
		raters: raters.map((r) => ({
			raterId: r.id,
			pseudonym: r.pseudonym,
			displayName: r.displayName,
			institution: r.institution,
			...figures({ id: r.id, members: new Set([r.id]) }, { liveRaw, gold, ...inputs })
		})),
		institutions
	};
}

/** The datasets whose reviewers an organiser can read the report of, newest first. */
export async function reviewedDatasets(db: Db) {
	return rowsOf<{ id: number; name: string; reviews: number }>(
		await db.execute(sql`select d.id, d.name, count(r.id)::int as reviews
			from dataset d join qa_item i on i.dataset_id = d.id join review r on r.item_id = i.id
			group by d.id, d.name order by d.id desc`)
	).map((d) => ({ id: Number(d.id), name: d.name, reviews: Number(d.reviews) }));
}

/**
 * The same figures for the medical students who verify a dataset's QA pairs: each counted review
 * (its latest revision, primary or secondary, without an exclusion of every study covering it)
 * gives two labels of its item — the verdict and the GP relevance — so agreement with peers is
 * Cohen's kappa against the other reviewers of the same items (the secondary sample), competence a
 * Dawid–Skene model per label, time on task the review's, and gold accuracy the reviewer's hidden
 * gold checks in the review queue (portal-wide, two labels each, flagged below the reviewers'
 * round's pass mark); position bias does not apply. Null when the dataset does not exist.
 */
export async function reviewerQualityReport(
	db: Db,
	opts: { datasetId: number; seed?: string; resamples?: number }
): Promise<RaterQualityReport | null> {
	const [d] = rowsOf<{ id: number; name: string }>(
		await db.execute(sql`select id, name from dataset where id = ${opts.datasetId}`)
	);
	if (!d) return null;
	const boot = {
		resamples: opts.resamples ?? REPORT_RESAMPLES,
		seed: opts.seed ?? `reviewer-quality-${d.id}`
	};
	const reviews = rowsOf<{
		id: number;
		item: number;
		reviewer: string;
		verdict: string;
		relevance: number;
		ms: number | null;
		at: Date | string;
	}>(
		await db.execute(sql`select r.id, r.item_id as item, r.reviewer_id as reviewer, r.verdict,
				r.relevance, r.time_on_task_ms as ms, r.submitted_at as at
			from review r join qa_item i on i.id = r.item_id
			where i.dataset_id = ${d.id}
				and not exists (select 1 from review n where n.supersedes_id = r.id)
				and ${reviewCounts(sql`r.reviewer_id`, sql`r.submitted_at`)}
			order by r.id`)
	);
	const live: UnitLabel[] = reviews.flatMap((r) =>
		(['verdict', 'relevance'] as const).map((key) => ({
			question: `i${r.item}#${r.id}`,
			unit: `${r.item}/${key}`,
			rater: r.reviewer,
			label: String(r[key])
		}))
	);
	const liveRaw: Inputs['liveRaw'] = reviews.map((r) => ({
		raterId: r.reviewer,
		assignmentId: Number(r.id),
		submittedAt: new Date(r.at),
		timeOnTaskMs: r.ms === null ? null : Number(r.ms)
	}));
	const thresholdMs = fastThreshold(
		liveRaw.flatMap((j) => (j.timeOnTaskMs === null ? [] : [j.timeOnTaskMs]))
	);
	const competence = new Map<string, { value: number; n: number }[]>();
	for (const key of ['relevance', 'verdict'] as const) {
		const fit = dawidSkene(
			reviews.map((r) => ({ item: String(r.item), annotator: r.reviewer, label: String(r[key]) }))
		);
		if (!fit.ok) continue;
		for (const a of fit.annotators)
			if (a.competence.value !== null)
				competence.set(a.annotator, [
					...(competence.get(a.annotator) ?? []),
					{ value: a.competence.value, n: a.n }
				]);
	}
	// Hidden gold checks run portal-wide: a reviewer's accuracy on them, whichever dataset they
	// were reviewing, is shown beside their reviews of this one.
	const round = await reviewerRoundSettings(db);
	const reviewers = new Set(reviews.map((r) => r.reviewer));
	const gold = (await reviewCheckScores(db)).filter((g) => reviewers.has(g.raterId));
	const inputs: Inputs = {
		live,
		liveRaw,
		gold,
		left: new Map(),
		firsts: new Map(),
		competence,
		thresholdMs,
		passMark: round.passMark,
		design: 'verification',
		noGold:
			round.checkEvery === null
				? 'hidden gold checks are off in the review queue'
				: 'no hidden gold check answered yet',
		boot
	};
	return {
		...(await assemble(db, inputs)),
		studyId: null,
		datasetId: Number(d.id),
		name: d.name,
		design: 'verification',
		passMark: round.passMark,
		thresholdMs,
		seed: boot.seed,
		resamples: boot.resamples
	};
}
