// The blinding audit: does any simple surface feature of the texts physicians see tell the
// reference answer (or one model) apart from the other candidates of a question? Pure functions
// over texts, so the same audit runs on raw and on presented texts.
import { QUESTION_TYPE_LABELS, QUESTION_TYPES, type QuestionType } from '../../../constants';
import {
	attackBlinding,
	type AttackQuestion,
	type PickRate,
	type SourceAttack
} from '../../../stats/blinding-attack';
import { normaliseSpace } from './presentation';

/** Features an organiser can remove by presenting every candidate the same way. */
export const FORM_FEATURES = [
	'prefix',
	'separator',
	'firstLetter',
	'lines',
	'detailPart',
	'stepLabels',
	'ending'
] as const;
/** Features that follow from what a candidate says; reported, never changed (no truncation). */
export const LENGTH_FEATURES = ['characters', 'words'] as const;
export type FormFeature = (typeof FORM_FEATURES)[number];
export type LengthFeature = (typeof LENGTH_FEATURES)[number];
export type Feature = FormFeature | LengthFeature;

/** How each feature reads on the study page. */
export const FEATURE_LABELS: Record<Feature, string> = {
	prefix: 'leading label (e.g. “Final Answer:”)',
	separator: 'list separator',
	firstLetter: 'case of the first letter',
	lines: 'number of lines',
	detailPart: 'reasoning or explanation part',
	stepLabels: 'reasoning labelled “Step N:”',
	ending: 'final punctuation',
	characters: 'length in characters',
	words: 'length in words'
};

const DETAIL_LABEL_LINE =
	/(?:^|\n|\s)[*_]*(?:incorrect reasoning explanation|explanation|reasoning)[*_]*\s*[:：]/i;

const NUMERIC: ReadonlySet<Feature> = new Set(['lines', 'characters', 'words']);

/** One candidate's surface features. */
export type Features = Record<Feature, string | number>;

/** The surface features of one text as a physician sees it. */
export function surfaceFeatures(text: string, type: QuestionType): Features {
	const t = text.trim();
	// Patterns run on normalised whitespace (no long runs to backtrack over); counts on the text.
	const n = normaliseSpace(t);
	const lines = t === '' ? 0 : t.split('\n').length;
	const label = /^[\s*_#>"'`-]*([A-Za-z]+(?: [A-Za-z]+){0,3})[*_]*\s*[:：]/.exec(n);
	const first = /\p{L}/u.exec(n.replace(/^[\s*_#>"'`(-]+/, ''));
	const startsWithLetter = first?.index === 0;
	const last = t.slice(-1);
	return {
		prefix: label ? label[1].toLowerCase().replace(/\s+/g, ' ') : 'none',
		separator: type === 'list' ? listSeparator(n) : 'n/a',
		firstLetter: !startsWithLetter
			? 'not a letter'
			: first[0] === first[0].toLowerCase() && first[0] !== first[0].toUpperCase()
				? 'lower'
				: 'upper',
		lines,
		detailPart: DETAIL_LABEL_LINE.test(n) ? 'yes' : 'no',
		stepLabels: /(?:^|\n|[.!?;]\s)\s*(?:[-*•]\s*)?step\s*\d+\s*[:.)]/i.test(n) ? 'yes' : 'no',
		ending: last === '' ? 'empty' : /[\p{L}\p{N}]/u.test(last) ? 'letter or digit' : `“${last}”`,
		characters: t.length,
		words: t === '' ? 0 : t.split(/\s+/).length
	};
}

/** How the items of a list answer are separated, judged on its first paragraph. */
function listSeparator(text: string): string {
	const head = text.split(/\n\s*\n/)[0];
	if (head.includes(';')) return '“; ”';
	if (head.trim().split('\n').length > 1) return 'one per line';
	if (head.includes(',')) return '“, ”';
	return 'none';
}

/**
 * Whether `target` stands out from `others` on one feature. Categorical features: every other
 * candidate has one and the same value and the target's differs. Numeric features (lines,
 * characters, words): the target is the strict minimum (or maximum) and the gap to the nearest
 * other candidate is larger than the spread of the others and at least half the smaller value
 * (the larger is at least 1.5 × the smaller). Needs at least two other candidates: with one, every
 * difference would "single out" both.
 */
export function singlesOut(
	feature: Feature,
	target: string | number,
	others: readonly (string | number)[]
): boolean {
	if (others.length < 2) return false;
	if (!NUMERIC.has(feature)) return others.every((o) => o === others[0]) && target !== others[0];
	const t = Number(target);
	const values = others.map(Number);
	const low = Math.min(...values);
	const high = Math.max(...values);
	const spread = high - low;
	if (t < low) return low - t > spread && low >= 1.5 * t;
	if (t > high) return t - high > spread && t >= 1.5 * high;
	return false;
}

/** One question's candidates as a physician would see them. */
export interface AuditQuestion {
	/** Identifies the question on the organiser's page (e.g. item id). */
	id: number;
	label: string;
	type: QuestionType;
	candidates: readonly { text: string; isReference: boolean; model: string | null }[];
}

/** A question where one feature tells a candidate apart, and which. */
export interface Flagged {
	id: number;
	label: string;
	features: Feature[];
}

/** A model that one feature tells apart in many of its questions. */
export interface ModelGiveaway {
	model: string;
	feature: FormFeature;
	questions: number;
	of: number;
}

export interface BlindingAudit {
	questions: number;
	/** Questions that have a reference candidate. */
	withReference: number;
	/** Questions where a form feature singles out the reference. */
	byForm: Flagged[];
	/** Questions where the length singles out the reference (reported only). */
	byLength: Flagged[];
	/** Models singled out by one form feature in at least half of their questions (and ≥ 3). */
	models: ModelGiveaway[];
}

/** The smallest number of questions, and share, that make a model "consistently" identifiable. */
export const CONSISTENT_MIN_QUESTIONS = 3;
export const CONSISTENT_SHARE = 0.5;

/** Audits the questions of a study: which features single out the reference or one model. */
export function auditBlinding(questions: readonly AuditQuestion[]): BlindingAudit {
	const audit: BlindingAudit = {
		questions: questions.length,
		withReference: 0,
		byForm: [],
		byLength: [],
		models: []
	};
	const modelHits = new Map<string, { of: number; hits: Map<FormFeature, number> }>();
	for (const q of questions) {
		const features = q.candidates.map((c) => surfaceFeatures(c.text, q.type));
		const standsOut = (i: number, f: Feature) =>
			singlesOut(
				f,
				features[i][f],
				features.filter((_, j) => j !== i).map((x) => x[f])
			);
		const ref = q.candidates.findIndex((c) => c.isReference);
		if (ref >= 0) {
			audit.withReference++;
			const form = FORM_FEATURES.filter((f) => standsOut(ref, f));
			const length = LENGTH_FEATURES.filter((f) => standsOut(ref, f));
			if (form.length) audit.byForm.push({ id: q.id, label: q.label, features: form });
			if (length.length) audit.byLength.push({ id: q.id, label: q.label, features: length });
		}
		q.candidates.forEach((c, i) => {
			if (c.isReference || c.model === null) return;
			const entry = modelHits.get(c.model) ?? { of: 0, hits: new Map() };
			entry.of++;
			for (const f of FORM_FEATURES)
				if (standsOut(i, f)) entry.hits.set(f, (entry.hits.get(f) ?? 0) + 1);
			modelHits.set(c.model, entry);
		});
	}
	for (const [model, { of, hits }] of modelHits)
		for (const [feature, n] of hits)
			if (n >= CONSISTENT_MIN_QUESTIONS && n >= CONSISTENT_SHARE * of)
				audit.models.push({ model, feature, questions: n, of });
	audit.models.sort((a, b) => b.questions - a.questions || a.model.localeCompare(b.model));
	return audit;
}

/** "Reference identifiable by form in 3 of 35 questions (9 %)". */
export function describeAudit(audit: BlindingAudit): string {
	if (!audit.withReference) return 'No question has the reference answer among its candidates.';
	const n = audit.byForm.length;
	return `Reference identifiable by form in ${n} of ${audit.withReference} questions (${percent(n, audit.withReference)} %)`;
}

function percent(n: number, of: number): number {
	return Math.round((100 * n) / of);
}

/** What an organiser must confirm before opening, or null when nothing gives a candidate away. */
export function auditWarning(audit: BlindingAudit): string | null {
	const parts: string[] = [];
	if (audit.byForm.length) {
		const counts = new Map<Feature, number>();
		for (const q of audit.byForm)
			for (const f of q.features) counts.set(f, (counts.get(f) ?? 0) + 1);
		const which = [...counts]
			.sort((a, b) => b[1] - a[1])
			.map(([f, c]) => `${FEATURE_LABELS[f]} in ${c}`)
			.join(', ');
		parts.push(`${describeAudit(audit)}: ${which}.`);
	}
	for (const m of audit.models)
		parts.push(
			`One model is told apart by its ${FEATURE_LABELS[m.feature]} in ${m.questions} of its ${m.of} questions.`
		);
	return parts.length ? parts.join(' ') : null;
}

/** The audit as the organiser's study page shows it: sentences and feature names. */
export function auditView(
	shown: BlindingAudit,
	raw: BlindingAudit,
	attacks?: { shown: readonly TypeAttack[]; raw: readonly TypeAttack[] }
) {
	const named = (q: Flagged) => ({
		id: q.id,
		label: q.label,
		features: q.features.map((f) => FEATURE_LABELS[f]).join(', ')
	});
	return {
		identifiable: shown.byForm.length,
		headline: describeAudit(shown),
		/** The same count on the raw texts: what the presentation removed. */
		raw: raw.withReference ? `${raw.byForm.length} of ${raw.withReference}` : null,
		byForm: shown.byForm.map(named),
		byLength: shown.byLength.map(named),
		withReference: shown.withReference,
		/** A determined reader's attacks per type, on the shown and the raw texts. */
		attacks: attacks ? attackView(attacks.shown) : [],
		rawAttacks: attacks ? attackView(attacks.raw) : [],
		warnings: attacks ? attackFindings(attacks.shown).map(describeFinding) : [],
		models: shown.models.map(
			(m) =>
				`${m.model} is told apart by its ${FEATURE_LABELS[m.feature]} in ${m.questions} of its ${m.of} questions.`
		)
	};
}
export type AuditView = ReturnType<typeof auditView>;

/** What the attacks call the reference among the sources they pick. */
export const REFERENCE_SOURCE = 'reference';

/** Both attacks (`attackBlinding`) on the questions of one type, or of every type ('all'). */
export interface TypeAttack {
	type: QuestionType | 'all';
	questions: number;
	sources: SourceAttack[];
}

/**
 * The attacks of a determined reader, per question type and over the whole study: each type's
 * classifier learns from that type's questions only, the overall one from all of them.
 */
export function attackByType(questions: readonly AuditQuestion[]): TypeAttack[] {
	const asAttack = (q: AuditQuestion): AttackQuestion => ({
		candidates: q.candidates.map((c) => ({
			text: c.text,
			source: c.isReference ? REFERENCE_SOURCE : (c.model ?? 'unnamed')
		}))
	});
	const types = QUESTION_TYPES.filter((t) => questions.some((q) => q.type === t));
	const scopes: TypeAttack[] = types.map((type) => {
		const of = questions.filter((q) => q.type === type);
		return { type, questions: of.length, sources: attackBlinding(of.map(asAttack)) };
	});
	if (types.length > 1)
		scopes.push({
			type: 'all',
			questions: questions.length,
			sources: attackBlinding(questions.map(asAttack))
		});
	return scopes;
}

/** The two attacks whose hit rates decide: a source picked above chance needs confirmation. */
export const DECIDING_ATTACKS = ['longest', 'classifier'] as const;
export type DecidingAttack = (typeof DECIDING_ATTACKS)[number];
export const ATTACK_LABELS: Record<DecidingAttack | 'topTwo', string> = {
	longest: '“pick the longest”',
	topTwo: 'among the two longest',
	classifier: 'a classifier on surface features (cross-validated by question)'
};

/** One source that an attack picks above chance in one scope. */
export interface AttackFinding {
	type: QuestionType | 'all';
	source: string;
	attack: DecidingAttack;
	rate: PickRate;
}

/** Every source an attack picks above chance, per scope (the reference first). */
export function attackFindings(attacks: readonly TypeAttack[]): AttackFinding[] {
	const found: AttackFinding[] = [];
	for (const scope of attacks)
		for (const s of [...scope.sources].sort(
			(a, b) => Number(b.source === REFERENCE_SOURCE) - Number(a.source === REFERENCE_SOURCE)
		))
			for (const attack of DECIDING_ATTACKS)
				if (s[attack].aboveChance)
					found.push({ type: scope.type, source: s.source, attack, rate: s[attack] });
	return found;
}

export const scopeLabel = (type: QuestionType | 'all') =>
	type === 'all' ? 'All types together' : QUESTION_TYPE_LABELS[type];
const whole = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const pc = (x: number) => `${Math.round(100 * x)} %`;
const sourceName = (source: string) =>
	source === REFERENCE_SOURCE ? 'the reference answer' : `model “${source}”`;

/** "Multi-hop: the reference answer is picked by “pick the longest” in 5 of 5 questions (…)". */
export function describeFinding(f: AttackFinding): string {
	const r = f.rate;
	return `${scopeLabel(f.type)}: ${sourceName(f.source)} is picked by ${ATTACK_LABELS[f.attack]} in ${whole(r.hits)} of ${r.n} questions (${pc(r.rate)}; 95 % interval ${pc(r.low)}–${pc(r.high)}) against ${pc(r.chance)} by chance.`;
}

/** One row of the exported attack figures: one source, one attack, one scope, one text set. */
export interface AttackRow {
	texts: 'shown' | 'raw';
	question_type: QuestionType | 'all';
	source: string;
	attack: DecidingAttack | 'topTwo';
	hits: number;
	n: number;
	rate: number;
	chance: number;
	low: number;
	high: number;
	above_chance: boolean;
}

/** The attacks' figures as a long table (every scope, source and attack). */
export function attackRows(texts: 'shown' | 'raw', attacks: readonly TypeAttack[]): AttackRow[] {
	return attacks.flatMap((scope) =>
		scope.sources.flatMap((s) =>
			(['longest', 'topTwo', 'classifier'] as const).map((attack) => ({
				texts,
				question_type: scope.type,
				source: s.source,
				attack,
				hits: s[attack].hits,
				n: s[attack].n,
				rate: s[attack].rate,
				chance: s[attack].chance,
				low: s[attack].low,
				high: s[attack].high,
				above_chance: s[attack].aboveChance
			}))
		)
	);
}

/** The study page's table: per scope, the reference's figures and who else is picked above chance. */
export function attackView(attacks: readonly TypeAttack[]) {
	const cell = (r: PickRate) => ({
		hits: whole(r.hits),
		n: r.n,
		rate: pc(r.rate),
		chance: pc(r.chance),
		interval: `${pc(r.low)}–${pc(r.high)}`,
		above: r.aboveChance
	});
	return attacks.map((scope) => {
		const ref = scope.sources.find((s) => s.source === REFERENCE_SOURCE);
		return {
			type: scope.type,
			label: scopeLabel(scope.type),
			questions: scope.questions,
			reference: ref
				? { longest: cell(ref.longest), topTwo: cell(ref.topTwo), classifier: cell(ref.classifier) }
				: null,
			models: attackFindings([scope])
				.filter((f) => f.source !== REFERENCE_SOURCE)
				.map(
					(f) =>
						`${f.source} (${f.attack === 'longest' ? 'longest' : 'classifier'} ${whole(f.rate.hits)} of ${f.rate.n})`
				)
		};
	});
}
