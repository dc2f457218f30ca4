// The preview of a correction: each field of the item before and after, with the changed words
// marked, so the organiser checks exactly what the new version changes.
import type { QaRecord } from '../../../schemas/qa-record';
import {
	TYPE_FIELDS,
	fieldLabel,
	valuesFromRecord,
	type CorrectionValues
} from './correction-form';

/** A run of text, and whether it differs between the two versions. */
export interface DiffSegment {
	text: string;
	changed: boolean;
}

export interface FieldDiff {
	key: keyof CorrectionValues;
	label: string;
	changed: boolean;
	/** The text before, with the removed words marked. */
	before: DiffSegment[];
	/** The text after, with the added words marked. */
	after: DiffSegment[];
}

// Word diffs beyond this many token pairs compare the texts whole (the table would be too big).
const MAX_CELLS = 4_000_000;

const tokens = (s: string) => s.match(/\s+|[^\s]+/g) ?? [];

/** Adjacent runs of one kind joined; a space between two changed words counts as changed. */
function merge(parts: DiffSegment[]): DiffSegment[] {
	for (let i = 1; i < parts.length - 1; i++)
		if (!parts[i].changed && !parts[i].text.trim() && parts[i - 1].changed && parts[i + 1].changed)
			parts[i] = { ...parts[i], changed: true };
	const out: DiffSegment[] = [];
	for (const p of parts) {
		const last = out.at(-1);
		if (last && last.changed === p.changed) last.text += p.text;
		else out.push({ ...p });
	}
	// A marked run ends at its last word: its trailing space is shown unmarked.
	return out.flatMap((seg) => {
		const space = seg.changed ? (/\s+$/.exec(seg.text)?.[0] ?? '') : '';
		return space && space !== seg.text
			? [
					{ text: seg.text.slice(0, -space.length), changed: true },
					{ text: space, changed: false }
				]
			: [seg];
	});
}

/** Word-level diff of two texts: the longest common sequence of words (and spaces) stays. */
export function wordDiff(a: string, b: string): { before: DiffSegment[]; after: DiffSegment[] } {
	if (a === b)
		return { before: [{ text: a, changed: false }], after: [{ text: b, changed: false }] };
	const x = tokens(a);
	const y = tokens(b);
	if (x.length * y.length > MAX_CELLS)
		return { before: [{ text: a, changed: true }], after: [{ text: b, changed: true }] };
	// lcs[i][j]: length of the common sequence of x[i..] and y[j..].
	const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
	for (let i = x.length - 1; i >= 0; i--)
		for (let j = y.length - 1; j >= 0; j--)
			lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
	const before: DiffSegment[] = [];
	const after: DiffSegment[] = [];
	let i = 0;
	let j = 0;
	while (i < x.length && j < y.length) {
		if (x[i] === y[j]) {
			before.push({ text: x[i++], changed: false });
			after.push({ text: y[j++], changed: false });
		} else if (lcs[i + 1][j] >= lcs[i][j + 1]) before.push({ text: x[i++], changed: true });
		else after.push({ text: y[j++], changed: true });
	}
	while (i < x.length) before.push({ text: x[i++], changed: true });
	while (j < y.length) after.push({ text: y[j++], changed: true });
	return { before: merge(before), after: merge(after) };
}

/** A field's value as one text: rows one per line, options with their letters. */
function shown(key: keyof CorrectionValues, v: CorrectionValues): string {
	const value = v[key];
	if (key === 'options')
		return v.options.map((o, i) => `${String.fromCharCode(65 + i)}. ${o.trim()}`).join('\n');
	if (key === 'correct') {
		const i = Number(v.correct);
		return v.correct !== '' && v.options[i] !== undefined
			? `${String.fromCharCode(65 + i)}. ${v.options[i].trim()}`
			: '';
	}
	if (Array.isArray(value)) return value.map((r) => r.trim()).join('\n');
	return (value as string).trim();
}

/** Every field of the item, before and after the correction, in the form's order. */
export function diffRecords(before: QaRecord, after: QaRecord): FieldDiff[] {
	const type = before.type;
	const a = valuesFromRecord(before);
	const b = valuesFromRecord(after);
	const keys: (keyof CorrectionValues)[] = [
		'question',
		...TYPE_FIELDS[type],
		'isbn',
		'page',
		'paragraph_id'
	];
	return keys.map((key) => {
		const x = shown(key, a);
		const y = shown(key, b);
		return { key, label: fieldLabel(type, key), changed: x !== y, ...wordDiff(x, y) };
	});
}
