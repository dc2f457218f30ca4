// The evidence design's plug into the study engine (designs/registry.ts): an evidence study stores
// its mode at creation; at the first opening it turns each frozen question into one unit per
// answer (an assessor judges one answer at a time, against the documents it cites) and freezes
// every answer's sentences with their citations.
import { eq, sql } from 'drizzle-orm';
import { EVIDENCE_MODES, type EvidenceMode } from '../../../../../constants';
import { splitAnswer } from '../../../../../text/sentences';
import { rowsOf, type Db, type Tx } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import type { StudyDesignPlug } from '../plug';
import { evidenceStudy } from './schema';
import { sentenceWords } from './words';
import { evidenceLabels } from './labels';

export const evidenceDesign: StudyDesignPlug = {
	labels: evidenceLabels,
	async onCreate(tx, study, input) {
		// Answers cite documents and are split into sentences only in a question set's runs.
		if (study.questionSetId === null)
			throw new DomainError(
				'invalid',
				'An evidence study needs a question set: its runs’ answers cite documents. Choose one under “Questions from”.',
				{ field: 'questionSetId' }
			);
		const mode = input.evidenceMode ?? 'assertion';
		if (!EVIDENCE_MODES.includes(mode))
			throw new DomainError('invalid', 'Choose per assertion or per sentence.', {
				field: 'evidenceMode'
			});
		await tx.insert(evidenceStudy).values({ studyId: study.id, mode });
	},
	async onFirstOpen(tx, study) {
		const [settings] = await tx
			.select()
			.from(evidenceStudy)
			.where(eq(evidenceStudy.studyId, study.id));
		if (!settings) throw new DomainError('invalid', 'This evidence study has no mode.');
		await splitIntoAnswers(tx, study.id);
		await freezeSentences(tx, study.id);
	},
	async configuration(db, studyId) {
		return { evidence: { mode: await evidenceModeOf(db, studyId) } };
	},
	noun: 'assessment',
	screenPath: (publicId) => `/rank/evidence/${publicId}`
};

/** A study's mode never changes once created, so a process keeps them (bounded), per database. */
const modesOf = new WeakMap<object, Map<number, EvidenceMode>>();
const KEEP = 100;

/** An evidence study's mode (null for a study of another design). */
export async function evidenceModeOf(db: Db | Tx, studyId: number): Promise<EvidenceMode | null> {
	const modes = modesOf.get(db) ?? new Map<number, EvidenceMode>();
	modesOf.set(db, modes);
	const known = modes.get(studyId);
	if (known) return known;
	const [row] = await db
		.select({ mode: evidenceStudy.mode })
		.from(evidenceStudy)
		.where(eq(evidenceStudy.studyId, studyId));
	if (!row) return null;
	if (modes.size >= KEEP) modes.delete(modes.keys().next().value!);
	modes.set(studyId, row.mode);
	return row.mode;
}

/**
 * Replaces each question the engine froze (one unit of all its answers) by one unit per answer,
 * numbered 1, 2, … per question in candidate order, each holding a copy of its answer and wanting
 * the study's k assessors. Runs in the opening's transaction.
 */
async function splitIntoAnswers(tx: Tx, studyId: number): Promise<void> {
	const [{ n }] = rowsOf<unknown>(
		await tx.execute(sql`
		select count(*)::int as n from candidate c
		join study_question q on q.id = c.study_question_id
		where q.study_id = ${studyId} and q.unit = 0`)
	) as { n: number }[];
	if (!n) throw new DomainError('invalid', 'No answers to assess: the questions have no answers.');
	// One unit per answer, numbered within its question.
	await tx.execute(sql`
		insert into study_question (study_id, item_id, item_version_id, set_question_id, unit, open_slots)
		select q.study_id, q.item_id, q.item_version_id, q.set_question_id,
			row_number() over (partition by q.id order by c.id), q.open_slots
		from candidate c join study_question q on q.id = c.study_question_id
		where q.study_id = ${studyId} and q.unit = 0
		order by q.id, c.id`);
	await tx.execute(sql`
		insert into candidate (study_question_id, response_id, set_response_id, model_id, is_reference, text, shown_text)
		select u.id, c.response_id, c.set_response_id, c.model_id, c.is_reference, c.text, c.shown_text
		from (
			select c.*, q.item_id, q.set_question_id,
				row_number() over (partition by q.id order by c.id) as unit
			from candidate c join study_question q on q.id = c.study_question_id
			where q.study_id = ${studyId} and q.unit = 0
		) c
		join study_question u on u.study_id = ${studyId} and u.unit = c.unit
			and coalesce(u.item_id, 0) = coalesce(c.item_id, 0)
			and coalesce(u.set_question_id, 0) = coalesce(c.set_question_id, 0)
		order by u.id`);
	await tx.execute(sql`
		delete from candidate where study_question_id in (
			select id from study_question where study_id = ${studyId} and unit = 0)`);
	await tx.execute(sql`delete from study_question where study_id = ${studyId} and unit = 0`);
}

/**
 * Copies every answer's sentences into `evidence_sentence`: the organiser's split of an imported
 * answer when it has one, else the answer split here (src/lib/text/sentences.ts), with the words
 * assertions are marked on.
 */
async function freezeSentences(tx: Tx, studyId: number): Promise<void> {
	const answers = rowsOf<unknown>(
		await tx.execute(sql`
		select c.id, c.text,
			coalesce((select json_agg(json_build_object('text', s.text, 'citations', s.citations,
				'claimed', s.claimed) order by s.position)
				from evidence_answer_sentence s where s.set_response_id = c.set_response_id), '[]'::json) as split
		from candidate c join study_question q on q.id = c.study_question_id
		where q.study_id = ${studyId}
		order by c.id`)
	) as {
		id: number;
		text: string;
		split: { text: string; citations: string[]; claimed: unknown }[];
	}[];
	const rows: { c: number; p: number; text: string; citations: string[]; claimed: unknown }[] = [];
	for (const a of answers) {
		const sentences = a.split.length
			? a.split
			: splitAnswer(a.text).map((s) => ({ ...s, claimed: null }));
		sentences.forEach((s, i) =>
			rows.push({ c: a.id, p: i + 1, text: s.text, citations: s.citations, claimed: s.claimed })
		);
	}
	if (!rows.length) throw new DomainError('invalid', 'No answer has a sentence to assess.');
	const CHUNK = 2000;
	for (let i = 0; i < rows.length; i += CHUNK) {
		const part = rows.slice(i, i + CHUNK);
		await tx.execute(sql`
			insert into evidence_sentence (candidate_id, position, text, words, citations, claimed)
			select (r->>'c')::int, (r->>'p')::int, r->>'text',
				array(select jsonb_array_elements_text(r->'words')),
				array(select jsonb_array_elements_text(r->'citations')),
				nullif(r->'claimed', 'null'::jsonb)
			from jsonb_array_elements(${JSON.stringify(
				part.map((r) => ({ ...r, words: sentenceWords(r.text) }))
			)}::jsonb) as r`);
	}
}

/** What an evidence study's design card shows (counts are 0 until it opens and freezes answers). */
export interface EvidenceSummary {
	mode: EvidenceMode;
	/** Answers (the study's units), their frozen sentences and the citations in them. */
	answers: number;
	sentences: number;
	citations: number;
	/** Distinct cited PMIDs whose document was never imported: assessors cannot judge them. */
	missingDocuments: number;
}

/** An evidence study's mode and the size of its frozen answers (null for another design). */
export async function evidenceSummary(
	db: Db | Tx,
	studyId: number
): Promise<EvidenceSummary | null> {
	const mode = await evidenceModeOf(db, studyId);
	if (!mode) return null;
	const [row] = rowsOf<unknown>(
		await db.execute(sql`
		with s as (
			select es.citations from evidence_sentence es
			join candidate c on c.id = es.candidate_id
			join study_question q on q.id = c.study_question_id
			where q.study_id = ${studyId}
		)
		select
			(select count(*)::int from study_question where study_id = ${studyId} and unit > 0) as answers,
			(select count(*)::int from s) as sentences,
			(select coalesce(sum(cardinality(s.citations)), 0)::int from s) as citations,
			(select count(distinct p)::int from s, unnest(s.citations) as p
				where not exists (select 1 from document d where d.pmid = p)) as missing`)
	) as { answers: number; sentences: number; citations: number; missing: number }[];
	return {
		mode,
		answers: row.answers,
		sentences: row.sentences,
		citations: row.citations,
		missingDocuments: row.missing
	};
}
