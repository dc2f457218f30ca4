// An imported answer's sentences, and an organiser's corrections of the split before a study
// uses it: two sentences merged into one, one split in two at a word. Each rewrites the answer's
// sentences renumbered from 1 in one transaction with its audit event; once an evidence study
// using the answer has opened (it froze its own copy), the answer's sentences are locked.
import { asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../../db/client';
import {
	evidenceAnswerSentence,
	setResponse,
	type ClaimedRelations,
	type EvidenceAnswerSentence
} from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';

/** One sentence of an answer: its number (from 1), text, cited PMIDs and what the run claimed. */
export type AnswerSentenceRow = Omit<EvidenceAnswerSentence, 'setResponseId'>;

async function sentencesOf(db: Db | Tx, setResponseId: number): Promise<AnswerSentenceRow[]> {
	return db
		.select({
			position: evidenceAnswerSentence.position,
			text: evidenceAnswerSentence.text,
			citations: evidenceAnswerSentence.citations,
			claimed: evidenceAnswerSentence.claimed
		})
		.from(evidenceAnswerSentence)
		.where(eq(evidenceAnswerSentence.setResponseId, setResponseId))
		.orderBy(asc(evidenceAnswerSentence.position));
}

/** The sentences of an imported answer (a set response), in order; empty when it has none. */
export async function answerSplit(db: Db, setResponseId: number): Promise<AnswerSentenceRow[]> {
	return sentencesOf(db, setResponseId);
}

/**
 * The answer's sentences, locked for the change: the answer must exist and no evidence study that
 * has left its draft may use it.
 */
async function editable(tx: Tx, setResponseId: number): Promise<AnswerSentenceRow[]> {
	const [answer] = await tx
		.select({ id: setResponse.id })
		.from(setResponse)
		.where(eq(setResponse.id, setResponseId))
		.for('update');
	if (!answer) throw new DomainError('not_found', 'There is no such answer.');
	const open = await tx.execute(sql`
		select 1 from candidate c
		join study_question q on q.id = c.study_question_id
		join study s on s.id = q.study_id
		where c.set_response_id = ${setResponseId} and s.design = 'evidence' and s.state <> 'draft'
		limit 1`);
	if (rowsOf(open).length)
		throw new DomainError(
			'locked',
			'An evidence study using this answer has opened; its sentences can no longer change.'
		);
	return sentencesOf(tx, setResponseId);
}

/** Replaces the answer's sentences by `next`, numbered from 1. */
async function rewrite(tx: Tx, setResponseId: number, next: Omit<AnswerSentenceRow, 'position'>[]) {
	await tx
		.delete(evidenceAnswerSentence)
		.where(eq(evidenceAnswerSentence.setResponseId, setResponseId));
	await tx
		.insert(evidenceAnswerSentence)
		.values(next.map((s, i) => ({ ...s, setResponseId, position: i + 1 })));
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

function mergedClaims(a: ClaimedRelations | null, b: ClaimedRelations | null) {
	if (!a && !b) return null;
	return {
		supported: union(a?.supported ?? [], b?.supported ?? []),
		contradicted: union(a?.contradicted ?? [], b?.contradicted ?? [])
	};
}

function sentenceAt(sentences: AnswerSentenceRow[], position: number, field: string) {
	const s = Number.isInteger(position) ? sentences[position - 1] : undefined;
	if (!s) throw new DomainError('invalid', `The answer has no sentence ${position}.`, { field });
	return s;
}

/**
 * Merges sentence `position` with the next one: texts joined with a space, citations (and
 * claims) concatenated without repeats; the sentences after are renumbered.
 */
export async function mergeSentences(
	db: Db,
	setResponseId: number,
	position: number,
	actorId: string | null
): Promise<AnswerSentenceRow[]> {
	return db.transaction(async (tx) => {
		const sentences = await editable(tx, setResponseId);
		const first = sentenceAt(sentences, position, 'position');
		const second = sentences[position];
		if (!second)
			throw new DomainError(
				'invalid',
				`Sentence ${position} is the last; there is none to merge it with.`,
				{
					field: 'position'
				}
			);
		const merged = {
			text: `${first.text} ${second.text}`,
			citations: union(first.citations, second.citations),
			claimed: mergedClaims(first.claimed, second.claimed)
		};
		const strip = ({ text, citations, claimed }: AnswerSentenceRow) => ({
			text,
			citations,
			claimed
		});
		await rewrite(tx, setResponseId, [
			...sentences.slice(0, position - 1).map(strip),
			merged,
			...sentences.slice(position + 1).map(strip)
		]);
		await recordAudit(tx, {
			actorId,
			action: 'set_response.merge_sentences',
			objectType: 'set_response',
			objectId: setResponseId,
			before: { position, texts: [first.text, second.text] },
			after: { position, text: merged.text }
		});
		return sentencesOf(tx, setResponseId);
	});
}

/**
 * Splits sentence `position` before word `atWord` (words: the text split on whitespace; 1 to
 * words − 1). The citations (and claims) stay with the second part, which ends the sentence as
 * the inline brackets did; the sentences after are renumbered.
 */
export async function splitSentence(
	db: Db,
	setResponseId: number,
	position: number,
	atWord: number,
	actorId: string | null
): Promise<AnswerSentenceRow[]> {
	return db.transaction(async (tx) => {
		const sentences = await editable(tx, setResponseId);
		const s = sentenceAt(sentences, position, 'position');
		const words = s.text.trim().split(/\s+/);
		if (!Number.isInteger(atWord) || atWord < 1 || atWord >= words.length)
			throw new DomainError(
				'invalid',
				words.length < 2
					? `Sentence ${position} has one word; it cannot be split.`
					: `Split sentence ${position} before one of its words 2 to ${words.length} (word index 1 to ${words.length - 1}).`,
				{ field: 'atWord' }
			);
		const parts = [
			{ text: words.slice(0, atWord).join(' '), citations: [], claimed: null },
			{ text: words.slice(atWord).join(' '), citations: s.citations, claimed: s.claimed }
		];
		const strip = ({ text, citations, claimed }: AnswerSentenceRow) => ({
			text,
			citations,
			claimed
		});
		await rewrite(tx, setResponseId, [
			...sentences.slice(0, position - 1).map(strip),
			...parts,
			...sentences.slice(position).map(strip)
		]);
		await recordAudit(tx, {
			actorId,
			action: 'set_response.split_sentence',
			objectType: 'set_response',
			objectId: setResponseId,
			before: { position, text: s.text },
			after: { position, atWord, texts: parts.map((p) => p.text) }
		});
		return sentencesOf(tx, setResponseId);
	});
}
