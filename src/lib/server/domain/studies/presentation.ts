// One canonical presentation per question type for every candidate of a ranking question, the
// reference included: physicians must not be able to tell the reference from the models by its form
// (a missing `Final Answer:` prefix, a `; `-joined list, a lower-case first letter, a missing
// reasoning part), nor a model by its habits (Markdown, `<think>` blocks). What each type shows —
// the final answer only, or the answer with each candidate's reasoning — is the study's choice.
// Pure functions over texts; the raw texts stay stored and exported.
import type { DetailChoice, QaType } from '../../../constants';

/** What the presentation needs to know about the question a candidate answers. */
export interface PresentationItem {
	type: QaType;
	/** Options of multiple-choice and list items, used to recognise option texts. */
	options?: readonly string[] | null;
	/** The item's reasoning steps: the reference's reasoning part of a multi-hop item. */
	reasoning?: readonly string[] | null;
}

/** One candidate's stored text and whether it is the reference answer. */
export interface RawCandidate {
	text: string;
	isReference: boolean;
}

/** A candidate split into its answer and its reasoning or explanation (null when it has none). */
export interface Parts {
	answer: string;
	detail: string | null;
}

/** Heading of the answer part, shown only when the question shows a second part. */
const ANSWER_LABEL: Record<QaType, string> = {
	true_false: 'Answer',
	multiple_choice: 'Answer',
	list: 'Answer',
	short_answer: 'Answer',
	short_inverse: 'Answer',
	multi_hop: 'Answer',
	multi_hop_inverse: 'Incorrect step'
};

/** Heading of the second part. */
const DETAIL_LABEL: Record<QaType, string> = {
	true_false: 'Explanation',
	multiple_choice: 'Explanation',
	list: 'Explanation',
	short_answer: 'Explanation',
	short_inverse: 'Explanation',
	multi_hop: 'Reasoning',
	multi_hop_inverse: 'Explanation'
};

/**
 * The default choice per type, chosen to blind and to keep what physicians judge. Only the
 * multi-hop-inverse explanation is the task itself; elsewhere the reference has no explanation
 * (or, on multi-hop items, the item's full reasoning, far longer than any model's), so showing
 * the second part would give it away by length or by its absence.
 */
export const DEFAULT_PRESENTATION: Readonly<Record<QaType, DetailChoice>> = {
	true_false: 'answer_only',
	multiple_choice: 'answer_only',
	list: 'answer_only',
	short_answer: 'answer_only',
	short_inverse: 'answer_only',
	multi_hop: 'answer_only',
	multi_hop_inverse: 'with_detail'
};

/** Types whose candidates have a second part to show or hide (short inverse answers are one). */
export const TYPES_WITH_DETAIL: readonly QaType[] = [
	'true_false',
	'multiple_choice',
	'list',
	'short_answer',
	'multi_hop',
	'multi_hop_inverse'
];

/** A study's choices: the defaults with what the organiser changed. */
export function presentationChoices(
	stored: Partial<Record<QaType, DetailChoice>> | null | undefined
): Record<QaType, DetailChoice> {
	return { ...DEFAULT_PRESENTATION, ...(stored ?? {}) };
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Whitespace runs collapsed to one space within lines, blank lines to one: the presentation's
 * patterns then never face long whitespace runs (which would make them backtrack quadratically).
 */
export function normaliseSpace(s: string): string {
	const out: string[] = [];
	for (const line of s.split('\n').map(collapse))
		if (line || (out.length && out[out.length - 1] !== '')) out.push(line);
	while (out.at(-1) === '') out.pop();
	return out.join('\n');
}

/**
 * Markup removed from every candidate alike: `<think>…</think>` blocks (and whatever precedes a
 * lone closing tag), Markdown emphasis (`**`, `__`, `*`), inline code backticks, heading marks and
 * bullet marks at the start of a line. Left in, each would mark the model that writes it.
 */
export function stripMarkup(s: string): string {
	let out = s.replace(/<think>[\s\S]*?<\/think>/gi, ' ');
	const close = out.toLowerCase().lastIndexOf('</think>');
	if (close >= 0) out = out.slice(close + '</think>'.length);
	return out
		.replace(/<\/?think>/gi, ' ')
		.replace(/^[ \t]*[-*•][ \t]+/gm, '')
		.replace(/\*+|__+|`+/g, '')
		.replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
		.trim();
}

/** Upper-cases the first letter when the first word is all lower case ("when" → "When", "pH" stays). */
export function sentenceCase(s: string): string {
	return s.replace(/^(\p{Ll})(\p{Ll}*)(?!\p{L})/u, (_, first: string, rest: string) => {
		return first.toUpperCase() + rest;
	});
}

/** Removes one trailing full stop (not an ellipsis): short answers end the same way. */
function withoutPeriod(s: string): string {
	return s.replace(/(?<!\.)\.$/, '').trimEnd();
}

/** Ends prose with a full stop unless it already ends a sentence. */
function withPeriod(s: string): string {
	return s === '' || /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** Markdown emphasis or quotes around a label or a word (`**Final Answer:**`). */
const DECOR = `[\\s*_#>"'\`]*`;

/**
 * Removes a leading scaffolding label the prompts ask for (`Final Answer:`, `Incorrect
 * Explanation:` …), case-insensitively and also when wrapped in Markdown emphasis.
 */
export function stripLabel(text: string, labels: readonly string[]): string {
	const alternatives = labels.map((l) => l.replace(/ /g, '\\s+')).join('|');
	const re = new RegExp(`^${DECOR}(?:${alternatives})${DECOR}\\s*[:：]${DECOR}`, 'i');
	let out = text.trim();
	// A label may repeat ("Answer: Final Answer: …").
	for (let i = 0; i < 3 && re.test(out); i++) out = out.replace(re, '').trim();
	return out;
}

/** Lower-case letters and digits only: how option texts are recognised in free text. */
function key(s: string): string {
	return s
		.toLowerCase()
		.replace(/[^\p{L}\p{N}%]+/gu, ' ')
		.trim();
}

/** The option `text` starts with, and what follows it (letters like `B.` or `B:` skipped). */
function leadingOption(
	text: string,
	options: readonly string[]
): { option: string; rest: string } | null {
	const body = text.replace(/^\(?[A-Z][.:)]\s+/, '');
	for (const candidate of [text, body]) {
		const sorted = [...options].sort((a, b) => b.length - a.length);
		for (const option of sorted) {
			const want = key(option);
			if (!want) continue;
			const limit = Math.min(candidate.length, option.length * 2 + 10);
			for (let i = 1; i <= limit; i++) {
				if (i < candidate.length && /[\p{L}\p{N}]/u.test(candidate[i])) continue;
				if (key(candidate.slice(0, i)) === want) return { option, rest: candidate.slice(i) };
			}
		}
	}
	return null;
}

/** Text after an answer: punctuation and joining words dropped, prose kept. */
function trailing(rest: string): string | null {
	const t = collapse(rest.replace(/^[\s.,;:!\-–—)*_]+/, ''));
	return t ? withPeriod(sentenceCase(t)) : null;
}

/**
 * Reasoning as one paragraph without `Step N:` labels: the reference's reasoning is a list of
 * labelled steps, most model reasoning is prose, and either form would tell them apart. Each step
 * ends as a sentence so that steps do not run together.
 */
function layoutReasoning(text: string): string | null {
	// A label opens the text, a line or a sentence ("… falls. Step 3: …"), not mid-sentence.
	const steps = text
		.split(/(?:^|\n|(?<=[.!?;])\s)\s*(?:[-*•]\s*)?step\s*\d+\s*[:.)]\s*/i)
		.map(collapse)
		.filter(Boolean)
		.map((step) => withPeriod(sentenceCase(step)));
	return steps.length ? steps.join(' ') : null;
}

function trueFalse(text: string): Parts {
	const body = stripLabel(text, ['final answer', 'answer']);
	const m = new RegExp(`^${DECOR}(true|false)\\b${DECOR}`, 'i').exec(body);
	if (!m) return { answer: withoutPeriod(sentenceCase(collapse(body))), detail: null };
	const verdict = m[1].toLowerCase() === 'true' ? 'True' : 'False';
	return { answer: verdict, detail: trailing(body.slice(m[0].length)) };
}

function multipleChoice(text: string, options: readonly string[]): Parts {
	const body = stripLabel(text, ['final answer', 'answer']);
	const found = leadingOption(body, options);
	if (found) return { answer: sentenceCase(found.option.trim()), detail: trailing(found.rest) };
	return { answer: withoutPeriod(sentenceCase(collapse(body))), detail: null };
}

function list(text: string, options: readonly string[]): Parts {
	const body = stripLabel(text, ['final answer', 'answer']);
	const [head, ...more] = body.split(/\n\s*\n/);
	const segments = head
		.split(/[\n;,]/)
		.map((s) =>
			s
				.trim()
				.replace(/^(?:[-*•]|\d+[.)]|\(?[A-Z][.:)])\s+/, '')
				.replace(/^and\s+/i, '')
				.trim()
		)
		.filter(Boolean);
	const byKey = new Map(options.map((o, i) => [key(o), i]));
	const widest = Math.max(1, ...options.map((o) => o.split(',').length));
	const matched: number[] = [];
	const others: string[] = [];
	for (let i = 0; i < segments.length;) {
		let taken = 0;
		for (let w = Math.min(widest, segments.length - i); w >= 1; w--) {
			const index = byKey.get(key(segments.slice(i, i + w).join(', ')));
			if (index !== undefined) {
				if (!matched.includes(index)) matched.push(index);
				taken = w;
				break;
			}
		}
		if (!taken) {
			const item = withoutPeriod(collapse(segments[i]));
			if (!others.some((o) => key(o) === key(item))) others.push(item);
			taken = 1;
		}
		i += taken;
	}
	// Option order, not each candidate's own: the order an answer lists its items in is a habit that
	// could tell a source apart, and physicians compare the sets.
	const items = [...matched.sort((a, b) => a - b).map((i) => options[i].trim()), ...others];
	return {
		answer: sentenceCase(items.join(', ')),
		detail: more.length ? trailing(more.join(' ')) : null
	};
}

function shortAnswer(text: string): Parts {
	const body = stripLabel(text, ['final answer', 'short answer', 'answer']);
	return { answer: withoutPeriod(sentenceCase(collapse(body))), detail: null };
}

function shortInverse(text: string): Parts {
	const body = stripLabel(text, ['incorrect explanation', 'explanation', 'final answer', 'answer']);
	return { answer: withPeriod(sentenceCase(collapse(body))), detail: null };
}

/** `Reasoning:` as a section label, at the start of a line or after the answer. */
const REASONING_LABEL = new RegExp(`(?:^|\\s)${DECOR}reasoning${DECOR}\\s*[:：]`, 'i');

function multiHop(text: string): Parts {
	const m = REASONING_LABEL.exec(text);
	let head = m ? text.slice(0, m.index) : text;
	let detail = m ? text.slice(m.index + m[0].length) : '';
	if (!m) {
		// Without a `Reasoning:` label, paragraphs after the first are the reasoning.
		const [first, ...rest] = text.trim().split(/\n\s*\n/);
		head = first;
		detail = rest.join('\n');
	}
	const answer = withoutPeriod(
		sentenceCase(collapse(stripLabel(head, ['final answer', 'answer'])))
	);
	return { answer, detail: layoutReasoning(detail) };
}

/** `Explanation:` (or `Incorrect Reasoning Explanation:`) opening a line. */
const EXPLANATION_LINE = new RegExp(
	`(?:^|\\n)${DECOR}-?${DECOR}(?:incorrect\\s+reasoning\\s+)?explanation${DECOR}\\s*[:：-]`,
	'i'
);

function multiHopInverse(text: string): Parts {
	// The step number as the official scorer reads it: the first `step` followed by digits.
	const step = /step\s*[:-]?\s*(\d+)/i.exec(text);
	const line = EXPLANATION_LINE.exec(text);
	let explanation: string;
	if (line) explanation = text.slice(line.index + line[0].length);
	else {
		const anywhere = /(?:incorrect reasoning explanation|explanation)\s*[:-]?/i.exec(text);
		explanation = anywhere
			? text.slice(anywhere.index + anywhere[0].length)
			: text
					.split('\n')
					.slice(step ? 1 : 0)
					.join(' ');
	}
	const detail = collapse(explanation);
	return {
		answer: step ? String(Number(step[1])) : 'not stated',
		detail: detail ? withPeriod(sentenceCase(detail)) : null
	};
}

/** Splits one candidate's text into its canonical answer and reasoning or explanation parts. */
export function splitParts(item: PresentationItem, candidate: RawCandidate): Parts {
	const text = normaliseSpace(stripMarkup(candidate.text ?? ''));
	const options = item.options ?? [];
	switch (item.type) {
		case 'true_false':
			return trueFalse(text);
		case 'multiple_choice':
			return multipleChoice(text, options);
		case 'list':
			return list(text, options);
		case 'short_answer':
			return shortAnswer(text);
		case 'short_inverse':
			return shortInverse(text);
		case 'multi_hop': {
			const parts = multiHop(text);
			// The reference's reasoning is the item's own reasoning steps, stored beside its answer.
			if (candidate.isReference && item.reasoning?.length)
				return { ...parts, detail: layoutReasoning(item.reasoning.join('\n')) };
			return parts;
		}
		case 'multi_hop_inverse':
			return multiHopInverse(text);
	}
}

/**
 * Whether a question shows a second part: when its type's choice is to show it and at least one
 * candidate has one. A candidate without one shows its answer alone, under the same answer label
 * as the others, never a placeholder only it would get.
 */
export function showsDetail(choice: DetailChoice, parts: readonly Parts[]): boolean {
	return choice === 'with_detail' && parts.some((p) => p.detail !== null);
}

function render(type: QaType, parts: Parts, detail: boolean): string {
	if (!detail)
		return type === 'multi_hop_inverse' ? `${ANSWER_LABEL[type]}: ${parts.answer}` : parts.answer;
	const answer = `${ANSWER_LABEL[type]}: ${parts.answer}`;
	return parts.detail === null ? answer : `${answer}\n\n${DETAIL_LABEL[type]}:\n${parts.detail}`;
}

/**
 * The texts physicians see for the candidates of one question, in the order given: markup and
 * prompt scaffolding stripped, one layout, one list separator, sentence case, one way of ending;
 * the second part shown or not as `choice` (the study's choice for the type) says.
 */
export function presentCandidates(
	item: PresentationItem,
	candidates: readonly RawCandidate[],
	choice: DetailChoice = DEFAULT_PRESENTATION[item.type]
): string[] {
	const parts = candidates.map((c) => splitParts(item, c));
	const detail = showsDetail(choice, parts);
	return parts.map((p) => render(item.type, p, detail));
}

/**
 * The texts raters see for the answers to a free-text question (a question set's): markup removed
 * from every answer alike (`stripMarkup`), whitespace normalised with paragraphs kept, sentence
 * case, prose ending with a full stop. Free-text answers have no separate reasoning part.
 */
export function presentFreeText(candidates: readonly RawCandidate[]): string[] {
	return candidates.map((c) => withPeriod(sentenceCase(normaliseSpace(stripMarkup(c.text)))));
}
