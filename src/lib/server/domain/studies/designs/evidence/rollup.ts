// The roll-up of one assessment into the official TREC BioGen per-sentence record: the portal
// keeps relevance and relations per assertion (a span of a sentence), the official assessment
// layout one relevance per sentence and one relation per cited document. Pure: the export and the
// statistics both read the sentence records from here, so the two never disagree.
//
// The rule:
// - Sentence relevance is the most serious of its assertions' relevance, in the order
//   inappropriate > required > borderline > unnecessary: an assertion that may harm makes the
//   sentence inappropriate; otherwise a sentence holding a required assertion is required.
// - The relation of each cited document is, over the sentence's assertions: contradicting if any
//   assertion contradicts it, else supporting if any supports or partially supports it (the
//   official layout has no partial relation; the long export keeps it), else neutral if any is
//   neutral, else not relevant.
// - citation_assessment lists the cited documents that were judged (a document that was never
//   imported cannot be judged and is left out).
// - An answer that does not answer the question, an uninterpretable sentence, or a sentence with
//   no assertion has relevance null; the first two, and a sentence citing nothing, have
//   citation_assessment null.
// A per-sentence study has one whole-sentence assertion per interpretable sentence: the same rule
// gives its values directly.
import type { EvidenceRelation, EvidenceRelevance } from '../../../../../constants';
import type { BiogenRelation as OfficialRelation } from '../../../../../stats/biogen';
import type { SentenceState } from './assessment';

/** Relevance labels from the most serious to the least. */
export const RELEVANCE_SEVERITY: readonly EvidenceRelevance[] = [
	'inappropriate',
	'required',
	'borderline',
	'unnecessary'
];

/** One cited document's relation as the official layout writes it. */
export interface OfficialCitation {
	cited_pmid: string;
	evidence_relation: OfficialRelation;
}

/** One answer sentence as the official assessment layout records it. */
export interface OfficialSentence {
	answer_sentence_id: string;
	answer_sentence: string;
	answer_sentence_relevance: EvidenceRelevance | null;
	citation_assessment: OfficialCitation[] | null;
}

/** A frozen sentence of an answer with what one assessor saved of it (null: nothing saved). */
export interface AssessedSentence {
	position: number;
	text: string;
	citations: string[];
	state: SentenceState | null;
}

/** The most serious relevance among the assertions (null when none has one). */
export function sentenceRelevance(
	relevances: readonly (EvidenceRelevance | null)[]
): EvidenceRelevance | null {
	for (const label of RELEVANCE_SEVERITY) if (relevances.includes(label)) return label;
	return null;
}

/** One document's official relation from the assertions' relations to it (null: none judged it). */
export function officialRelation(relations: readonly EvidenceRelation[]): OfficialRelation | null {
	if (!relations.length) return null;
	if (relations.includes('contradicts')) return 'contradicting';
	if (relations.includes('supports') || relations.includes('partially_supports'))
		return 'supporting';
	if (relations.includes('neutral')) return 'neutral';
	return 'not relevant';
}

/** One sentence of an assessment rolled up into its official record (see the rule above). */
export function rollUpSentence(answersQuestion: boolean, s: AssessedSentence): OfficialSentence {
	const record = {
		answer_sentence_id: String(s.position),
		answer_sentence: s.text
	};
	const interpretable = answersQuestion && s.state?.interpretable === true;
	if (!interpretable)
		return { ...record, answer_sentence_relevance: null, citation_assessment: null };
	const assertions = s.state!.assertions;
	const relevance = sentenceRelevance(assertions.map((a) => a.relevance));
	if (!s.citations.length)
		return { ...record, answer_sentence_relevance: relevance, citation_assessment: null };
	const citations: OfficialCitation[] = [];
	for (const pmid of new Set(s.citations)) {
		const relation = officialRelation(
			assertions.flatMap((a) => a.relations.filter((r) => r.pmid === pmid).map((r) => r.relation))
		);
		if (relation) citations.push({ cited_pmid: pmid, evidence_relation: relation });
	}
	return { ...record, answer_sentence_relevance: relevance, citation_assessment: citations };
}

/** One run's answer in the official layout. */
export interface OfficialAnswer {
	is_answer_accurate: 'yes' | 'no';
	answer_sentences: OfficialSentence[];
}

/** A whole assessment of one answer rolled up: its accuracy and sentence records in order. */
export function rollUpAnswer(
	answersQuestion: boolean,
	sentences: readonly AssessedSentence[]
): OfficialAnswer {
	return {
		is_answer_accurate: answersQuestion ? 'yes' : 'no',
		answer_sentences: [...sentences]
			.sort((a, b) => a.position - b.position)
			.map((s) => rollUpSentence(answersQuestion, s))
	};
}
