// The assessor's work on one answer, as reactive state: what is entered (the answer as a whole,
// each sentence's state), where the assessor is (sentence, word cursor, assertion, document and
// its sentence), the saving (saver.ts) and the finish. The screen's components read it and call
// its methods; keys arrive as actions (keys.ts) through `apply`.
import { deserialize } from '$app/forms';
import { goto } from '$app/navigation';
import type { EvidenceRelation, EvidenceRelevance } from '$lib/constants';
import type { EvidenceScreenData } from './+page.server';
import type { KeyAction } from './keys';
import { createSaver, type SaveStatus } from './saver';
import {
	assertionAt,
	blankSentence,
	editAssertion,
	firstOpen,
	markAssertion,
	moveCursor,
	selectedSpan,
	sentenceGap,
	sentenceStatus,
	setInterpretable,
	stepOf,
	toggledEvidence,
	withRelation,
	type AssertionState,
	type SentenceState,
	type WordCursor
} from './steps';

/** Keys that judge the sentence in view, once the answer as a whole answers the question. */
const SENTENCE_STEPS = new Set<KeyAction['kind']>([
	'interpretable',
	'word',
	'mark',
	'remove',
	'relation',
	'relevance',
	'evidence'
]);
/** Keys that only look around: they also act on a finished answer. */
const LOOKING = new Set<KeyAction['kind']>([
	'shortcuts',
	'sentence',
	'document',
	'docSentence',
	'word'
]);

/** Where the screen should look after a key: an element to scroll to (and focus when `follow`). */
export interface Reveal {
	selector: string;
	follow: boolean;
}

async function postAction(name: 'save' | 'submit', fields: Record<string, string>) {
	const body = new FormData();
	for (const [k, v] of Object.entries(fields)) body.set(k, v);
	const res = await fetch(`${location.pathname}?/${name}`, {
		method: 'POST',
		body,
		headers: { accept: 'application/json', 'x-sveltekit-action': 'true' }
	});
	return deserialize(await res.text());
}

export class EvidenceWork {
	readonly mode: EvidenceScreenData['mode'];
	readonly sentences: EvidenceScreenData['sentences'];
	readonly documents: EvidenceScreenData['documents'];
	/** A finished answer is shown read only. */
	readonly readonly: boolean;

	answers = $state<boolean | null>(null);
	states = $state<Record<number, SentenceState>>({});
	current = $state(0);
	cursor = $state<WordCursor>({ cursor: 0, anchor: 0 });
	/** The assertion being judged (index in the sentence). */
	active = $state(0);
	pmid = $state<string | null>(null);
	/** The document sentence ↑/↓ are on (1-based). */
	docCursor = $state(1);
	status = $state<SaveStatus>({ kind: 'idle' });
	lost = $state(false);
	problem = $state('');
	busy = $state(false);
	showKeys = $state(false);
	announcement = $state('');

	sentence = $derived.by(() => this.sentences[this.current]);
	sentenceState = $derived(this.states[this.sentence?.position] ?? blankSentence());
	statuses = $derived.by(() =>
		this.sentences.map((s) => sentenceStatus(s, this.states[s.position], this.mode))
	);
	done = $derived(this.statuses.filter((s) => s === 'done').length);
	gap = $derived.by(() =>
		this.sentence ? sentenceGap(this.sentence, this.sentenceState, this.mode) : null
	);
	assertion = $derived<AssertionState | undefined>(
		this.sentenceState.interpretable ? this.sentenceState.assertions[this.active] : undefined
	);
	document = $derived.by(() => (this.pmid ? (this.documents[this.pmid] ?? null) : null));
	evidence = $derived.by(() => {
		const r = this.assertion?.relations.find((x) => x.pmid === this.pmid);
		return this.document && r ? r.evidence : null;
	});
	evidenceHint = $derived.by(() =>
		!this.assertion
			? this.mode === 'assertion'
				? 'Mark an assertion of the sentence to select its evidence here.'
				: 'Say the sentence is interpretable to select its evidence here.'
			: 'Choose the relation of the assertion to this document to select evidence.'
	);

	#lastSent = 0;
	#saver = createSaver(
		async (step) => {
			const result = await postAction('save', {
				step: JSON.stringify(step),
				timeOnTaskMs: String(this.#elapsed())
			});
			if (result.type === 'success') return { ok: true, leased: result.data?.leased !== false };
			if (result.type === 'failure')
				return { ok: false, message: String(result.data?.message ?? 'The step was refused.') };
			return { ok: false, message: 'Reload the page to go on.' };
		},
		(s, leased) => {
			this.status = s;
			if (leased !== undefined) this.lost = !leased;
		}
	);

	constructor(screen: EvidenceScreenData) {
		this.mode = screen.mode;
		this.sentences = screen.sentences;
		this.documents = screen.documents;
		this.readonly = screen.submitted;
		this.answers = screen.saved.answers;
		this.states = structuredClone(screen.saved.sentences);
		this.current = firstOpen(this.sentences, screen.saved.sentences, this.mode);
		this.pmid = this.sentences[this.current]?.citations[0]?.pmid ?? null;
	}

	/** Starts the clock of the time on task (when the screen is shown). */
	start() {
		this.#lastSent = performance.now();
	}

	/** Milliseconds since the last post: each post adds its share of the time on task. */
	#elapsed() {
		const now = performance.now();
		const ms = Math.round(now - this.#lastSent);
		this.#lastSent = now;
		return ms;
	}

	/** Unsaved changes are waiting or on their way. */
	get unsaved() {
		return this.status.kind === 'pending' || this.status.kind === 'saving';
	}

	say(message: string) {
		this.announcement = message;
	}

	flush = () => this.#saver.flush();
	retry = () => void this.#saver.retry();

	setAnswers = (value: boolean) => {
		if (this.readonly) return;
		this.answers = value;
		this.#saver.schedule('answers', { answers: value });
		this.say(
			value ? 'The answer answers the question.' : 'The answer does not answer the question.'
		);
	};

	#setSentence(next: SentenceState) {
		if (this.readonly) return;
		const position = this.sentence.position;
		this.states[position] = next;
		this.#saver.schedule(`s${position}`, stepOf(position, $state.snapshot(next) as SentenceState));
	}

	#edit(index: number, edit: (a: AssertionState) => AssertionState) {
		this.#setSentence({
			...this.sentenceState,
			assertions: editAssertion(this.sentenceState.assertions, index, edit)
		});
	}

	goTo = (index: number) => {
		if (index < 0 || index >= this.sentences.length) return;
		this.current = index;
		this.cursor = { cursor: 0, anchor: 0 };
		this.active = 0;
		this.pmid = this.sentences[index].citations[0]?.pmid ?? null;
		this.docCursor = 1;
		this.say(`Sentence ${this.sentences[index].position} of ${this.sentences.length}.`);
	};

	showDocument = (pmid: string) => {
		this.pmid = pmid;
		this.docCursor = 1;
	};

	interpretable = (value: boolean) => {
		const s = this.sentence;
		this.#setSentence(setInterpretable(this.sentenceState, value, s.words.length, this.mode));
		if (!value) this.goTo(this.current + 1);
		else this.active = 0;
	};

	pick = (w: number, extend: boolean) => {
		this.cursor = extend ? { cursor: w, anchor: this.cursor.anchor } : { cursor: w, anchor: w };
		const a = assertionAt(this.sentenceState.assertions, w);
		if (a >= 0 && !extend) this.active = a;
	};

	mark = () => {
		if (this.mode !== 'assertion' || !this.sentenceState.interpretable) return;
		const marked = markAssertion(this.sentenceState.assertions, selectedSpan(this.cursor));
		if ('refused' in marked) return this.say(marked.refused);
		this.#setSentence({ ...this.sentenceState, assertions: marked.assertions });
		this.active = marked.index;
		// The marked words show as the assertion, no longer as a selection.
		this.cursor = { cursor: this.cursor.cursor, anchor: this.cursor.cursor };
		const first = this.sentence.citations.find((c) => c.available);
		if (first) this.showDocument(first.pmid);
		this.say(`Assertion ${marked.index + 1} marked.`);
	};

	activate = (i: number) => {
		this.active = i;
	};

	relation = (i: number, pmid: string, r: EvidenceRelation) => {
		this.#edit(i, (a) => withRelation(a, pmid, r));
		this.active = i;
		this.pmid = pmid;
	};

	relevance = (i: number, r: EvidenceRelevance) => {
		this.#edit(i, (a) => ({ ...a, relevance: r }));
		this.active = i;
	};

	remove = (i: number) => {
		const assertions = this.sentenceState.assertions.filter((_, j) => j !== i);
		this.#setSentence({ ...this.sentenceState, assertions });
		this.active = 0;
		this.say(`Assertion ${i + 1} removed.`);
	};

	toggleEvidence = (n: number) => {
		this.docCursor = n;
		const { assertion, pmid } = this;
		const next = assertion && pmid ? toggledEvidence(assertion, pmid, n) : null;
		if (!next) return this.say(this.evidenceHint);
		this.#edit(this.active, () => next);
		const on = next.relations.find((r) => r.pmid === pmid)?.evidence.includes(n);
		this.say(`Sentence ${n} of PMID ${pmid} ${on ? 'selected' : 'unselected'} as evidence.`);
	};

	/** Does what a key asks; returns what the screen should bring into view. */
	apply(action: KeyAction): Reveal | null {
		if (this.readonly && !LOOKING.has(action.kind)) return null;
		if (SENTENCE_STEPS.has(action.kind) && this.answers !== true) {
			this.say(
				this.answers === null
					? 'First say whether the answer, as a whole, answers the question (Y or N).'
					: 'The answer does not answer the question; Shift+Y changes that.'
			);
			return null;
		}
		const card = this.assertion ? `s${this.sentence.position}-a${this.assertion.start}` : '';
		switch (action.kind) {
			case 'shortcuts':
				this.showKeys = true;
				return null;
			case 'finish':
				void this.finish();
				return null;
			case 'answers':
				this.setAnswers(action.value);
				return null;
			case 'interpretable':
				this.interpretable(action.value);
				return null;
			case 'sentence':
				this.goTo(this.current + action.delta);
				return null;
			case 'word': {
				const words = this.sentence.words.length;
				this.cursor = moveCursor(this.cursor, action.delta, words, action.extend);
				if (!action.extend) this.pick(this.cursor.cursor, false);
				return { selector: `[data-word="${this.cursor.cursor}"]`, follow: true };
			}
			case 'mark':
				this.mark();
				return null;
			case 'remove': {
				const i = assertionAt(this.sentenceState.assertions, this.cursor.cursor);
				if (i < 0 || this.mode !== 'assertion') this.say('No assertion under the word cursor.');
				else this.remove(i);
				return null;
			}
			case 'relation':
				if (!this.assertion) this.say(this.evidenceHint);
				else if (!this.pmid || !this.document) this.say('No document to judge in view.');
				else {
					this.relation(this.active, this.pmid, action.relation);
					this.say(`PMID ${this.pmid}: ${action.relation.replace('_', ' ')}.`);
					return { selector: `input[name="${card}-rel-${this.pmid}"]`, follow: false };
				}
				return null;
			case 'relevance':
				if (!this.assertion) {
					this.say(this.evidenceHint);
					return null;
				}
				this.relevance(this.active, action.relevance);
				this.say(`Assertion ${this.active + 1}: ${action.relevance}.`);
				return { selector: `input[name="${card}-relevance"]`, follow: false };
			case 'document': {
				const citations = this.sentence.citations;
				if (!citations.length) return null;
				const at = citations.findIndex((c) => c.pmid === this.pmid);
				const n = citations.length;
				this.showDocument(citations[(at + action.delta + n) % n].pmid);
				this.say(`PMID ${this.pmid}${this.document ? '' : ', not available'}.`);
				return null;
			}
			case 'docSentence':
				if (!this.document) return null;
				this.docCursor = Math.min(
					Math.max(this.docCursor + action.delta, 1),
					this.document.sentences.length
				);
				return { selector: `[data-doc-sentence="${this.docCursor}"]`, follow: true };
			case 'evidence':
				this.toggleEvidence(this.docCursor);
				return null;
		}
	}

	/** Saves what waits, then finishes the answer: to the next answer, or the gap is shown. */
	finish = async () => {
		if (this.busy || this.lost || this.readonly) return;
		this.busy = true;
		this.problem = '';
		try {
			if (!(await this.#saver.flush())) {
				this.problem = 'Some of your work is not saved yet; retry saving first.';
				return;
			}
			const result = await postAction('submit', { timeOnTaskMs: String(this.#elapsed()) });
			if (result.type === 'redirect') return await goto(result.location, { invalidateAll: true });
			if (result.type === 'failure') {
				this.problem = String(result.data?.message ?? 'The answer could not be finished.');
				const field = Object.keys(result.data?.errors ?? {})[0] ?? '';
				const at = /^sentence-(\d+)$/.exec(field);
				if (at) this.goTo(this.sentences.findIndex((s) => s.position === Number(at[1])));
				return;
			}
			this.problem = 'Something went wrong; reload the page.';
		} catch {
			this.problem = 'The connection failed; try again.';
		} finally {
			this.busy = false;
		}
	};
}
