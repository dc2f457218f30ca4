// The evidence design's exports: the official TREC BioGen assessment layout (one assessment per
// answer, rolled up per sentence: rollup.ts), the input of `cliniq stats evidence`; and the long
// table, one row per assessor × answer × sentence × assertion × cited document, which keeps all
// the portal records (spans, partial support, evidence sentences, every assessor).
import { sql } from 'drizzle-orm';
import type { EvidenceRelation, EvidenceRelevance } from '../../../../../constants';
import { rowsOf, type Db } from '../../../../db/client';
import { toSafeCsv } from '../../../../csv';
import type { AssertionState, SentenceState } from './assessment';
import { rollUpAnswer, type OfficialAnswer } from './rollup';
import type { ClaimedRelations } from './schema';
import { spanText } from './words';

/** One finished assessment of an answer, with the answer's frozen sentences and what was saved. */
export interface FinishedAssessment {
	assignmentId: number;
	/** The answer (the study's unit holding it). */
	unitId: number;
	/** The set question's external id (`question_id` in the official layout). */
	questionId: string;
	/** The run: the answer's model name (`reference` for the reference answer). */
	run: string;
	assessor: string;
	/** 1 for the answer's first finished assessment (earliest, then lowest assignment id). */
	order: number;
	answersQuestion: boolean;
	timeOnTaskMs: number;
	submittedAt: Date;
	sentences: {
		position: number;
		text: string;
		words: string[];
		citations: string[];
		claimed: ClaimedRelations | null;
		state: SentenceState | null;
	}[];
}

interface AssessmentRow {
	id: number;
	unit: number;
	question: string;
	run: string;
	assessor: string;
	order: number;
	answers: boolean | null;
	time: number;
	submitted: string;
	sentences: FinishedAssessment['sentences'] | null;
	labels: { position: number; interpretable: boolean | null }[] | null;
	assertions: (AssertionState & { position: number })[] | null;
}

/**
 * Every finished assessment of an evidence study that counts (no excluded assessor's, no gold
 * question's): questions in set order, answers in the order
 * the study holds them, then each answer's assessments in finishing order (earliest
 * `submitted_at`, then assignment id). Assessors by pseudonym.
 */
export async function finishedAssessments(db: Db, studyId: number): Promise<FinishedAssessment[]> {
	const rows = rowsOf<unknown>(
		await db.execute(sql`
		select e.assignment_id as id, q.id as unit, sq.external_id as question,
			case when c.is_reference then 'reference' else coalesce(m.name, 'unknown') end as run,
			u.pseudonym as assessor,
			row_number() over (partition by q.id order by e.submitted_at, e.assignment_id)::int as "order",
			e.answers_question as answers, e.time_on_task_ms as time, e.submitted_at as submitted,
			(select json_agg(json_build_object('position', s.position, 'text', s.text, 'words', s.words,
				'citations', s.citations, 'claimed', s.claimed) order by s.position)
				from evidence_sentence s where s.candidate_id = c.id) as sentences,
			(select json_agg(json_build_object('position', l.position, 'interpretable', l.interpretable))
				from evidence_sentence_label l where l.assignment_id = e.assignment_id) as labels,
			(select json_agg(json_build_object('position', t.position, 'start', t.start_word,
				'end', t.end_word, 'relevance', t.relevance,
				'relations', coalesce((select json_agg(json_build_object('pmid', r.pmid,
					'relation', r.relation, 'evidence', r.evidence) order by r.pmid)
					from evidence_relation r where r.assertion_id = t.id), '[]'::json))
				order by t.position, t.start_word)
				from evidence_assertion t where t.assignment_id = e.assignment_id) as assertions
		from evidence_assessment e
		join assignment a on a.id = e.assignment_id
		join study_question q on q.id = a.study_question_id
		join candidate c on c.study_question_id = q.id
		left join model m on m.id = c.model_id
		join set_question sq on sq.id = q.set_question_id
		join "user" u on u.id = e.rater_id
		where q.study_id = ${studyId} and e.submitted_at is not null and a.state = 'submitted'
			and not q.gold
			and (e.rater_id not in (select rater_id from exclusion where revoked_at is null)
				or judgement_counts(e.rater_id, q.study_id, e.submitted_at))
		order by sq.id, q.unit, q.id, e.submitted_at, e.assignment_id`)
	) as AssessmentRow[];
	return rows.map((r) => {
		const states = new Map<number, SentenceState>();
		const stateOf = (p: number) => {
			let s = states.get(p);
			if (!s) states.set(p, (s = { interpretable: null, assertions: [] }));
			return s;
		};
		for (const l of r.labels ?? []) stateOf(l.position).interpretable = l.interpretable;
		for (const { position, ...t } of r.assertions ?? []) stateOf(position).assertions.push(t);
		return {
			assignmentId: r.id,
			unitId: r.unit,
			questionId: r.question,
			run: r.run,
			assessor: r.assessor,
			order: r.order,
			answersQuestion: r.answers === true,
			timeOnTaskMs: r.time,
			submittedAt: new Date(r.submitted),
			sentences: (r.sentences ?? []).map((s) => ({ ...s, state: states.get(s.position) ?? null }))
		};
	});
}

/** One question of the official BioGen assessment layout. */
export interface OfficialQuestion {
	question_id: string;
	machine_generated_answers: Record<string, OfficialAnswer>;
}

/** The official layout from finished assessments: each answer's first assessment only. */
export function officialAssessments(
	assessments: readonly FinishedAssessment[]
): OfficialQuestion[] {
	const out: OfficialQuestion[] = [];
	const byQuestion = new Map<string, OfficialQuestion>();
	for (const a of assessments) {
		if (a.order !== 1) continue;
		let q = byQuestion.get(a.questionId);
		if (!q) {
			q = { question_id: a.questionId, machine_generated_answers: {} };
			byQuestion.set(a.questionId, q);
			out.push(q);
		}
		// defineProperty, not assignment: a run named "__proto__" stays a run.
		Object.defineProperty(q.machine_generated_answers, a.run, {
			value: rollUpAnswer(a.answersQuestion, a.sentences),
			enumerable: true,
			writable: true,
			configurable: true
		});
	}
	return out;
}

/**
 * The official TREC BioGen assessment file of an evidence study (a JSON array; `cliniq stats
 * evidence` reads it): one entry per question, per run its answer's first finished assessment.
 * Answers not yet assessed are left out.
 */
export async function exportEvidenceOfficial(db: Db, studyId: number): Promise<OfficialQuestion[]> {
	return officialAssessments(await finishedAssessments(db, studyId));
}

/** Columns of the evidence long table (see exportEvidenceLong). */
export const EVIDENCE_EXPORT_COLUMNS = [
	'question_id',
	'run',
	'assessor',
	'assessment_order',
	'answers_question',
	'answer_sentence_id',
	'sentence',
	'interpretable',
	'assertion',
	'span_start_word',
	'span_end_word',
	'assertion_text',
	'relevance',
	'cited_pmid',
	'document_available',
	'relation',
	'evidence_sentences',
	'claimed_relation',
	'time_on_task_ms',
	'submitted_at'
] as const;
export type EvidenceExportRow = Record<
	(typeof EVIDENCE_EXPORT_COLUMNS)[number],
	string | number | boolean | null
> & { relevance: EvidenceRelevance | null; relation: EvidenceRelation | null };

/** What the run claimed of a PMID in a sentence (null: it claimed nothing). */
function claimedOf(claimed: ClaimedRelations | null, pmid: string): string | null {
	if (claimed?.contradicted?.includes(pmid)) return 'contradicts';
	if (claimed?.supported?.includes(pmid)) return 'supports';
	return null;
}

/**
 * The long table of an evidence study's finished assessments: one row per assessor × answer ×
 * sentence × assertion × cited PMID, blank (null) where a level does not apply — a sentence
 * without assertions has one row per cited PMID, a sentence citing nothing one row per assertion,
 * an answer that does not answer the question one row per sentence. Spans are word indices
 * (start from 0, end exclusive); `assessment_order` 1 is the assessment the official export holds;
 * `relation` keeps partial support; `evidence_sentences` lists the document's sentences (from 1)
 * separated by semicolons; `claimed_relation` is what the run said of the citation, if anything.
 */
export async function exportEvidenceLong(db: Db, studyId: number): Promise<EvidenceExportRow[]> {
	const assessments = await finishedAssessments(db, studyId);
	const available = await availableDocuments(
		db,
		assessments.flatMap((a) => a.sentences.flatMap((s) => s.citations))
	);
	const rows: EvidenceExportRow[] = [];
	for (const a of assessments) {
		const base = {
			question_id: a.questionId,
			run: a.run,
			assessor: a.assessor,
			assessment_order: a.order,
			answers_question: a.answersQuestion,
			time_on_task_ms: a.timeOnTaskMs,
			submitted_at: a.submittedAt.toISOString()
		};
		for (const s of a.sentences) {
			const sentence = {
				...base,
				answer_sentence_id: String(s.position),
				sentence: s.text,
				interpretable: a.answersQuestion ? (s.state?.interpretable ?? null) : null
			};
			const assertions: (AssertionState | null)[] =
				a.answersQuestion && s.state?.assertions.length ? s.state.assertions : [null];
			const pmids: (string | null)[] = s.citations.length ? s.citations : [null];
			assertions.forEach((t, i) => {
				for (const pmid of pmids) {
					const judged = t && pmid ? t.relations.find((r) => r.pmid === pmid) : undefined;
					rows.push({
						...sentence,
						assertion: t ? i + 1 : null,
						span_start_word: t ? t.start : null,
						span_end_word: t ? t.end : null,
						assertion_text: t ? spanText(s.words, t.start, t.end) : null,
						relevance: t?.relevance ?? null,
						cited_pmid: pmid,
						document_available: pmid ? available.has(pmid) : null,
						relation: judged?.relation ?? null,
						evidence_sentences: judged?.evidence.length ? judged.evidence.join(';') : null,
						claimed_relation: pmid ? claimedOf(s.claimed, pmid) : null
					});
				}
			});
		}
	}
	return rows;
}

/** Which of these PMIDs have their document imported. */
async function availableDocuments(db: Db, pmids: string[]): Promise<Set<string>> {
	const distinct = [...new Set(pmids)];
	if (!distinct.length) return new Set();
	const rows = rowsOf<unknown>(
		await db.execute(sql`select pmid from document
			where pmid in (select jsonb_array_elements_text(${JSON.stringify(distinct)}::jsonb))`)
	) as { pmid: string }[];
	return new Set(rows.map((r) => r.pmid));
}

/** The evidence long table as CSV (RFC 4180, header line, formulas neutralised). */
export function evidenceLongCsv(rows: EvidenceExportRow[]): string {
	return toSafeCsv(EVIDENCE_EXPORT_COLUMNS, rows);
}
