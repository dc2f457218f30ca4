// An assessor's work on one answer of an evidence study: the screen's data (the question, the
// answer's frozen sentences with their citations, the cited documents split into sentences, and
// what was saved so far), each step saved as it is taken (`evidence_save`), and the answer
// finished with the claim of the next (`evidence_submit`); both in db/functions/evidence.sql.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
	EVIDENCE_RELATIONS,
	EVIDENCE_RELEVANCES,
	type EvidenceMode,
	type EvidenceRelation,
	type EvidenceRelevance
} from '../../../../../constants';
import { selectValue } from '../../../../db/call';
import { rowsOf, type Db, type Tx } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import {
	claimArguments,
	claimResult,
	getAssignmentView,
	type ClaimResult,
	type RawClaim
} from '../../queue';
import { rememberShown } from '../../shown';
import type { AssignmentView } from '../../../../../ranking/view';
import { evidenceModeOf } from './design';

/** Longest time on task one save or finish adds: a day, in milliseconds. */
const MAX_STEP_MS = 24 * 60 * 60 * 1000;
/** The most assertions one sentence may hold, and evidence sentences one relation. */
export const MAX_ASSERTIONS = 50;
export const MAX_EVIDENCE = 200;

/** One relation of an assertion to a cited document, with the document's evidence sentences. */
export interface RelationState {
	pmid: string;
	relation: EvidenceRelation;
	evidence: number[];
}
/** One assertion (words start..end of its sentence), its relations and relevance. */
export interface AssertionState {
	start: number;
	end: number;
	relevance: EvidenceRelevance | null;
	relations: RelationState[];
}
/** What was saved of one sentence. */
export interface SentenceState {
	interpretable: boolean | null;
	assertions: AssertionState[];
}
/** One step as the screen posts it: the answer as a whole, or the whole state of one sentence. */
export type EvidenceStep = { answers: boolean } | ({ position: number } & SentenceState);

const relationSchema = z.object({
	pmid: z.string().regex(/^\d{1,12}$/, 'a PMID is digits'),
	relation: z.enum(EVIDENCE_RELATIONS),
	evidence: z.array(z.number().int().min(1).max(100_000)).max(MAX_EVIDENCE).default([])
});
const assertionSchema = z.object({
	start: z.number().int().min(0).max(10_000),
	end: z.number().int().min(1).max(10_000),
	relevance: z.enum(EVIDENCE_RELEVANCES).nullable().default(null),
	relations: z.array(relationSchema).max(100).default([])
});
/** A step as posted (JSON in the `step` field of the save action). */
export const evidenceStepSchema = z.union([
	z.object({ answers: z.boolean() }).strict(),
	z
		.object({
			position: z.number().int().min(1).max(100_000),
			interpretable: z.boolean().nullable(),
			assertions: z.array(assertionSchema).max(MAX_ASSERTIONS).default([])
		})
		.strict()
]);

/** A cited PMID of a sentence: its number on the screen and whether its document was imported. */
export interface ScreenCitation {
	pmid: string;
	available: boolean;
}
/** The assessor's screen of one answer. */
export interface EvidenceScreen {
	view: AssignmentView;
	mode: EvidenceMode;
	sentences: { position: number; text: string; words: string[]; citations: ScreenCitation[] }[];
	/** The cited documents that were imported, by PMID, split into sentences (numbered from 1). */
	documents: Record<string, { title: string; sentences: string[] }>;
	saved: { answers: boolean | null; sentences: Record<number, SentenceState> };
	/** The answer is finished (read only). */
	submitted: boolean;
}

/**
 * The screen of an assignment of an evidence study for its assessor (null: not theirs, or not an
 * evidence study). Nothing names the answer's model: the page gets the text, its sentences and
 * the documents.
 */
export async function evidenceScreen(
	db: Db | Tx,
	raterId: string,
	publicId: string
): Promise<EvidenceScreen | null> {
	const view = await getAssignmentView(db, publicId, raterId);
	if (!view || view.study.design !== 'evidence') return null;
	return evidenceScreenOf(db, view);
}

/** The evidence screen of an assignment view (its page load, or the view a claim returned). */
export async function evidenceScreenOf(db: Db | Tx, view: AssignmentView): Promise<EvidenceScreen> {
	const mode = (await evidenceModeOf(db, view.study.id)) ?? 'assertion';
	const [row] = rowsOf<unknown>(
		await db.execute(sql`
		with a as (
			select x.id, x.state, c.id as candidate
			from assignment x
			join candidate c on c.study_question_id = x.study_question_id
			where x.public_id = ${view.assignment.publicId}
			limit 1
		), s as (
			select es.position, es.text, es.words, es.citations from a
			join evidence_sentence es on es.candidate_id = a.candidate
		)
		select
			(select json_agg(json_build_object('position', s.position, 'text', s.text,
				'words', s.words, 'citations', s.citations) order by s.position) from s) as sentences,
			(select json_object_agg(d.pmid, json_build_object('title', d.title, 'sentences', d.sentences))
				from document d where d.pmid in (select unnest(s.citations) from s)) as documents,
			(select e.answers_question from evidence_assessment e, a where e.assignment_id = a.id) as answers,
			(select json_agg(json_build_object('position', l.position, 'interpretable', l.interpretable))
				from evidence_sentence_label l, a where l.assignment_id = a.id) as labels,
			(select json_agg(json_build_object('position', t.position, 'start', t.start_word,
				'end', t.end_word, 'relevance', t.relevance,
				'relations', coalesce((select json_agg(json_build_object('pmid', r.pmid,
					'relation', r.relation, 'evidence', r.evidence) order by r.pmid)
					from evidence_relation r where r.assertion_id = t.id), '[]'::json))
				order by t.position, t.start_word)
				from evidence_assertion t, a where t.assignment_id = a.id) as assertions
	`)
	) as {
		sentences: { position: number; text: string; words: string[]; citations: string[] }[] | null;
		documents: Record<string, { title: string; sentences: string[] }> | null;
		answers: boolean | null;
		labels: { position: number; interpretable: boolean | null }[] | null;
		assertions: (AssertionState & { position: number })[] | null;
	}[];
	const documents = row?.documents ?? {};
	const saved: EvidenceScreen['saved'] = { answers: row?.answers ?? null, sentences: {} };
	const stateOf = (p: number) => (saved.sentences[p] ??= { interpretable: null, assertions: [] });
	for (const l of row?.labels ?? []) stateOf(l.position).interpretable = l.interpretable;
	for (const { position, ...t } of row?.assertions ?? []) stateOf(position).assertions.push(t);
	return {
		view,
		mode,
		sentences: (row?.sentences ?? []).map((s) => ({
			...s,
			citations: s.citations.map((pmid) => ({ pmid, available: pmid in documents }))
		})),
		documents,
		saved,
		submitted: view.assignment.state === 'submitted'
	};
}

type SaveResult =
	{ status: 'saved'; leased: boolean; relet: boolean } | { status: 'refused'; reason: string };

const REFUSED: Record<string, DomainError> = {
	not_yours: new DomainError('not_found', 'This answer is not in your queue.'),
	submitted: new DomainError('already_submitted', 'You have already finished this answer.'),
	closed: new DomainError('locked', 'This study is closed; nothing was saved.'),
	sentence: new DomainError('invalid', 'The answer has no such sentence; reload it.'),
	span: new DomainError(
		'invalid',
		'An assertion lies outside its sentence or overlaps another; nothing was saved.'
	),
	citation: new DomainError('invalid', 'A relation names a document the sentence does not cite.'),
	document: new DomainError('invalid', 'A relation names a document that is not available.'),
	evidence: new DomainError('invalid', 'An evidence sentence is not in its document.'),
	expired: new DomainError(
		'not_leased',
		'Your time on this answer ran out and another assessor took it; your work is saved but cannot be finished.'
	)
};

/** The outcome of a saved step: whether the assessor still holds the answer. */
export interface StepSaved {
	leased: boolean;
	relet: boolean;
}

/**
 * Saves one step of an assessment in one statement (`evidence_save`): the answer as a whole, or
 * one sentence's whole state. Refusals are DomainErrors and change nothing.
 */
export async function saveEvidenceStep(
	db: Db | Tx,
	raterId: string,
	publicId: string,
	step: unknown,
	options: { timeOnTaskMs?: number; now?: Date } = {}
): Promise<StepSaved> {
	const parsed = evidenceStepSchema.safeParse(step);
	if (!parsed.success)
		throw new DomainError('invalid', 'This step is not well formed; reload the answer.', {
			problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
		});
	const value = parsed.data;
	if ('position' in value && value.interpretable !== true && value.assertions.length)
		throw new DomainError('invalid', 'Only an interpretable sentence has assertions.');
	const now = options.now ?? new Date();
	const time = Math.min(MAX_STEP_MS, Math.max(0, Math.round(options.timeOnTaskMs ?? 0)));
	// evidence_save: src/lib/server/db/functions/evidence.sql
	const result = await selectValue<SaveResult>(
		db,
		'evidence_save',
		sql`evidence_save(${raterId}::text, ${publicId}::text, ${JSON.stringify(value)}::jsonb, ${time}::integer, ${now.toISOString()}::timestamptz)`
	);
	if (result.status === 'refused') throw REFUSED[result.reason] ?? REFUSED.sentence;
	return { leased: result.leased, relet: result.relet };
}

/** What a finished answer still lacked: the answer as a whole (position null) or a sentence. */
export interface Missing {
	position: number | null;
	what: 'answers' | 'interpretable' | 'assertion' | 'relation' | 'evidence' | 'relevance';
}

const MISSING_TEXT: Record<Missing['what'], string> = {
	answers: 'Say first whether the answer, as a whole, answers the question.',
	interpretable: 'Say whether sentence {n} is interpretable.',
	assertion: 'Sentence {n} needs its judgement.',
	relation: 'Sentence {n}: judge every cited document for each assertion.',
	evidence:
		'Sentence {n}: select the evidence sentences of each supporting or contradicting document.',
	relevance: 'Sentence {n}: give each assertion its relevance.'
};

/** The sentence a refusal names, in words. */
export function missingMessage(m: Missing): string {
	return MISSING_TEXT[m.what].replace('{n}', String(m.position ?? ''));
}

type SubmitResult =
	| { status: 'stored' | 'duplicate'; studyId: number; next?: RawClaim }
	| { status: 'refused'; reason: string; missing?: Missing };

export interface EvidenceSubmitted {
	studyId: number;
	duplicate: boolean;
	next?: ClaimResult;
}

/**
 * Finishes an assessment (`evidence_submit`): refused, naming the first gap, until every step is
 * done; with `next`, leases the assessor's next answer in the same statement.
 */
export async function submitEvidence(
	db: Db | Tx,
	raterId: string,
	publicId: string,
	options: { next?: boolean; timeOnTaskMs?: number; now?: Date } = {}
): Promise<EvidenceSubmitted> {
	const now = options.now ?? new Date();
	const time = Math.min(MAX_STEP_MS, Math.max(0, Math.round(options.timeOnTaskMs ?? 0)));
	const claim = options.next ?? false;
	// evidence_submit: src/lib/server/db/functions/evidence.sql
	const result = await selectValue<SubmitResult>(
		db,
		'evidence_submit',
		sql`evidence_submit(${raterId}::text, ${publicId}::text, ${time}::integer, ${now.toISOString()}::timestamptz, ${claim}::boolean, ${claimArguments()})`
	);
	if (result.status === 'refused') {
		if (result.reason === 'incomplete' && result.missing)
			throw new DomainError('invalid', missingMessage(result.missing), {
				field: result.missing.position === null ? 'answers' : `sentence-${result.missing.position}`
			});
		throw REFUSED[result.reason] ?? REFUSED.not_yours;
	}
	if (result.next) rememberShown(raterId, result.next);
	return {
		studyId: result.studyId,
		duplicate: result.status === 'duplicate',
		...(result.next ? { next: claimResult(result.next) } : {})
	};
}
