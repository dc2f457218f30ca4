// The records of a run file in the three BioGen formats, and what each becomes: one answer of a
// run (the model) to a topic (a question of the set), split into sentences with the PMIDs each
// cites. 2024: `{topic_id, answer, references}` (the file's team_id and run_name added to each),
// citations inline in the answer as "[PMID, PMID]"; 2025 task B: `{metadata, responses: [{text,
// citations}]}`; 2025 task A: `{metadata, answers: [{text, supported_citations,
// contradicted_citations}]}`, one sentence per item.
import { z } from 'zod';
import { splitAnswer } from '../../../text/sentences';
import { canonicalPmid, pmidSchema } from '../../../schemas/pmid';
import { TEXT_LIMITS } from '../../../schemas/text';
import type { ClaimedRelations } from '../../db/schema';
import type { RecordError } from '../imports';
import { validate, type Check } from './fields';
import type { RawRecord } from './records';

export const RUN_FORMATS = ['biogen2024', 'biogen2025b', 'biogen2025a'] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];
export const RUN_FORMAT_LABELS: Record<RunFormat, string> = {
	biogen2024: 'BioGen 2024 (one run: answers with inline citations)',
	biogen2025b: 'BioGen 2025 task B (JSON Lines of sentences with citations)',
	biogen2025a:
		'BioGen 2025 task A (JSON Lines of sentences with supported and contradicted citations)'
};

/** Most sentences one answer may have, and most PMIDs one list may hold. */
export const MAX_SENTENCES = 500;
export const MAX_CITATIONS = 200;

/** One sentence of an answer as stored. */
export interface SentenceFields {
	text: string;
	citations: string[];
	claimed: ClaimedRelations | null;
}

/** One answer of a run to a topic, as stored. */
export interface RunFields {
	run: string;
	topicId: string;
	/** The field naming the topic in this format (for the messages). */
	topicField: string;
	/** The answer's text: as given (2024), or its sentences joined with spaces (2025). */
	text: string;
	sentences: SentenceFields[];
	/** 2024: references the answer does not cite inline (left out). */
	uncited: string[];
}

const longer = (n: number) => `is longer than ${n.toLocaleString('en')} characters`;
const dedupe = (pmids: string[]) => [...new Set(pmids)];
/** The splitter's PMIDs in their canonical form (anything else it may return is dropped). */
const canonical = (pmids: string[]) =>
	dedupe(pmids.map(canonicalPmid).filter((p): p is string => p !== null));

const id = z
	.union([z.string(), z.number().int()], { error: 'must be a string or an integer' })
	.transform((v) => String(v).trim())
	.pipe(z.string().min(1, 'must not be empty').max(TEXT_LIMITS.id, longer(TEXT_LIMITS.id)));
const pmids = z
	.array(pmidSchema, { error: 'must be an array of PubMed ids' })
	.max(MAX_CITATIONS, `has more than ${MAX_CITATIONS} PubMed ids`)
	.nullish()
	.transform((p) => dedupe(p ?? []));
const sentenceText = z
	.string({ error: 'must be a string' })
	.max(TEXT_LIMITS.field, longer(TEXT_LIMITS.field));

/**
 * An item's text without inline citation brackets (a 2025 item should have none, but some runs
 * kept them) and the PMIDs those brackets held.
 */
function stripInline(text: string): { text: string; citations: string[] } {
	if (!/\[\s*\d/.test(text)) return { text: text.trim(), citations: [] };
	const parts = splitAnswer(text);
	return {
		text: parts
			.map((p) => p.text.trim())
			.filter(Boolean)
			.join(' '),
		citations: canonical(parts.flatMap((p) => p.citations))
	};
}

const schema2024 = z
	.object({
		team_id: id.nullish(),
		run_name: id,
		topic_id: id,
		answer: z.string({ error: 'must be a string' }).max(TEXT_LIMITS.long, longer(TEXT_LIMITS.long)),
		references: pmids
	})
	.transform((v, ctx) => {
		const sentences: SentenceFields[] = [];
		for (const part of splitAnswer(v.answer)) {
			const text = part.text.trim();
			const citations = canonical(part.citations);
			const last = sentences.at(-1);
			// A bracket standing alone belongs to the sentence before it.
			if (!text && last) last.citations = dedupe([...last.citations, ...citations]);
			else if (text) sentences.push({ text, citations, claimed: null });
		}
		if (!sentences.length)
			ctx.addIssue({ code: 'custom', path: ['answer'], message: 'must not be empty' });
		if (sentences.length > MAX_SENTENCES)
			ctx.addIssue({
				code: 'custom',
				path: ['answer'],
				message: `has more than ${MAX_SENTENCES} sentences`
			});
		const cited = new Set(sentences.flatMap((s) => s.citations));
		return {
			run: v.run_name,
			topicId: v.topic_id,
			topicField: 'topic_id',
			text: v.answer,
			sentences,
			uncited: v.references.filter((p) => !cited.has(p))
		};
	});

const metadata = z.object(
	{ team_id: id.nullish(), run_id: id, topic_id: id },
	{ error: 'must be an object with team_id, run_id and topic_id' }
);

/** 2025 items as sentences; an item left empty once its brackets are gone is a problem. */
function sentencesOf(
	items: { text: string; citations: string[]; claimed: ClaimedRelations | null }[],
	key: string,
	ctx: z.RefinementCtx
): SentenceFields[] {
	return items.map((item, i) => {
		const inline = stripInline(item.text);
		if (!inline.text)
			ctx.addIssue({ code: 'custom', path: [key, i, 'text'], message: 'must not be empty' });
		return {
			text: inline.text,
			citations: dedupe([...item.citations, ...inline.citations]),
			claimed: item.claimed
		};
	});
}

const answerOf = (run: string, topicId: string, sentences: SentenceFields[]): RunFields => ({
	run,
	topicId,
	topicField: 'metadata.topic_id',
	text: sentences.map((s) => s.text).join(' '),
	sentences,
	uncited: []
});

const schema2025b = z
	.object({
		metadata,
		responses: z
			.array(
				z.object(
					{ text: sentenceText, citations: pmids },
					{ error: 'must be an object with text and citations' }
				),
				{ error: 'must be an array of sentences ({text, citations})' }
			)
			.min(1, 'must not be empty')
			.max(MAX_SENTENCES, `has more than ${MAX_SENTENCES} sentences`)
	})
	.transform((v, ctx) =>
		answerOf(
			v.metadata.run_id,
			v.metadata.topic_id,
			sentencesOf(
				v.responses.map((r) => ({ ...r, claimed: null })),
				'responses',
				ctx
			)
		)
	);

const schema2025a = z
	.object({
		metadata,
		answers: z
			.array(
				z.object(
					{ text: sentenceText, supported_citations: pmids, contradicted_citations: pmids },
					{ error: 'must be an object with text, supported_citations and contradicted_citations' }
				),
				{ error: 'must be an array of sentences' }
			)
			.min(1, 'must not be empty')
			.max(MAX_SENTENCES, `has more than ${MAX_SENTENCES} sentences`)
	})
	.transform((v, ctx) =>
		answerOf(
			v.metadata.run_id,
			v.metadata.topic_id,
			sentencesOf(
				v.answers.map((a) => ({
					text: a.text,
					citations: dedupe([...a.supported_citations, ...a.contradicted_citations]),
					claimed: { supported: a.supported_citations, contradicted: a.contradicted_citations }
				})),
				'answers',
				ctx
			)
		)
	);

const SCHEMAS = { biogen2024: schema2024, biogen2025b: schema2025b, biogen2025a: schema2025a };
const KEYS: Record<RunFormat, string[]> = {
	biogen2024: ['team_id', 'run_name', 'topic_id', 'answer', 'references'],
	biogen2025b: ['metadata', 'responses'],
	biogen2025a: ['metadata', 'answers']
};
const MEANT: Record<RunFormat, Record<string, string>> = {
	biogen2024: { citations: 'references', text: 'answer', id: 'topic_id' },
	biogen2025b: { response: 'responses', text: 'responses' },
	biogen2025a: { answer: 'answers', text: 'answers' }
};

/** An answer record of a run file in `format`, or its problems added to `errors`. */
export function checkRunRecord(
	format: RunFormat,
	raw: RawRecord,
	errors: RecordError[]
): Check<RunFields> {
	return validate(raw, SCHEMAS[format], KEYS[format], MEANT[format], (v) => v, errors);
}
