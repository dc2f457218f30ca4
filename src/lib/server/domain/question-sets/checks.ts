// What both question-set imports do with their records once each is valid: find repeats (the
// same key twice: identical content is imported once with a warning, different content rejects
// the import naming both records), and gather the keys the import does not read into a warning.
import { WARNING_RECORDS_KEPT } from '../../../schemas/qa-record';
import { contentHash } from '../items';
import {
	duplicateRecordWarning,
	importRejected,
	importWarning,
	type ImportWarning,
	type RecordError
} from '../imports';
import { recordName, type RawRecord } from './records';

/** A valid record, ready to be written. */
export interface Accepted<T> {
	raw: RawRecord;
	fields: T;
	hash: string;
}

export class RecordChecks<T> {
	readonly errors: RecordError[] = [];
	readonly accepted: Accepted<T>[] = [];
	private readonly seen = new Map<string, Accepted<T>>();
	private readonly repeats: RecordError[] = [];
	private repeatCount = 0;
	private readonly unknown: RecordError[] = [];
	private unknownCount = 0;
	private unknownEntries = 0;
	private readonly unknownKeys = new Set<string>();
	/** Records read (by file and place), bad ones included. */
	private readonly read = new Set<string>();

	constructor(
		/** What a record is called in messages ("question", "response"). */
		private readonly noun: string,
		/** The field a repeat is named by. */
		private readonly keyField: string
	) {}

	/**
	 * Takes one record: `check` validates it (adding its problems to `errors`); `key` says which
	 * records are the same one, and how the key reads in a message.
	 */
	add(
		raw: RawRecord,
		check: (
			raw: RawRecord,
			errors: RecordError[]
		) => { ok: true; fields: T; unknown: RecordError[] } | { ok: false },
		key: (fields: T) => { key: string; label: string }
	) {
		this.read.add(`${raw.file}\u0000${raw.index}`);
		const checked = check(raw, this.errors);
		if (!checked.ok) return;
		if (checked.unknown.length) {
			this.unknownCount++;
			this.unknownEntries += checked.unknown.length;
			for (const u of checked.unknown) {
				this.unknownKeys.add(u.field);
				if (this.unknown.length < WARNING_RECORDS_KEPT) this.unknown.push(u);
			}
		}
		const hash = contentHash(raw.value);
		const { key: k, label } = key(checked.fields);
		const earlier = this.seen.get(k);
		if (earlier) {
			const where = recordName(earlier.raw, raw.file);
			if (earlier.hash !== hash)
				this.errors.push({
					file: raw.file,
					index: raw.index,
					field: this.keyField,
					reason: `repeats ${label} of ${where} with different content`,
					kind: 'conflicting_duplicate'
				});
			else {
				this.repeatCount++;
				if (this.repeats.length < WARNING_RECORDS_KEPT)
					this.repeats.push({
						file: raw.file,
						index: raw.index,
						field: this.keyField,
						reason: `repeats ${where} exactly; imported once`
					});
			}
			return;
		}
		const accepted = { raw, fields: checked.fields, hash };
		this.seen.set(k, accepted);
		this.accepted.push(accepted);
	}

	/** Records of a file problem, also counted. */
	noteFileErrors(errors: RecordError[]) {
		for (const e of errors) if (e.index >= 0) this.read.add(`${e.file ?? ''}\u0000${e.index}`);
		this.errors.push(...errors);
	}

	/** The rejection when any record was bad (or the files held none), else null. */
	rejection() {
		if (this.read.size === 0 && this.errors.length === 0)
			this.errors.push({ index: -1, field: '(file)', reason: `contains no ${this.noun}s` });
		return this.errors.length ? importRejected(this.errors, this.read.size) : null;
	}

	/** A rejection with problems found later (e.g. against the database). */
	rejectWith(errors: RecordError[]) {
		return importRejected(errors, this.read.size);
	}

	warnings(): ImportWarning[] {
		const out = duplicateRecordWarning(this.repeats, this.noun, this.repeatCount);
		if (this.unknownCount) {
			const n = this.unknownCount;
			const keys = [...this.unknownKeys].slice(0, 10).map((k) => `"${k}"`);
			out.push(
				importWarning(
					'unknown_key',
					`${n} ${this.noun}${n === 1 ? ' has' : 's have'} keys the import does not read (${keys.join(', ')}${this.unknownKeys.size > keys.length ? ', …' : ''}); they are kept with the record but not shown.`,
					this.unknown,
					this.unknownEntries
				)
			);
		}
		return out;
	}
}
