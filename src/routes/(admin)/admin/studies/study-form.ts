import { z } from 'zod';
import { QA_TYPE_VALUES } from '$lib/schemas/qa-record';
import type { StudyInput } from '$lib/server/domain/ranking/studies';

const optionalId = z.preprocess(
	(v) => (v === '' || v === null ? undefined : v),
	z.coerce.number().int().positive().optional()
);

/** The create-study form as posted (checkbox values are present only when ticked). */
const formSchema = z.object({
	name: z.string(),
	instructions: z.string().default(''),
	types: z.array(z.enum(QA_TYPE_VALUES)),
	snapshotId: optionalId,
	importId: optionalId,
	itemIds: z
		.string()
		.default('')
		.refine((s) => /^[\d\s,;]*$/.test(s), 'must be item ids separated by commas or spaces'),
	modelIds: z.array(z.coerce.number().int().positive()),
	includeReference: z.boolean(),
	ratersPerQuestion: z.coerce.number().int(),
	allowTies: z.boolean(),
	leaseMinutes: z.coerce.number().int()
});

/** Reads the study form into domain input, or the first problem as a message. */
export function readStudyForm(
	form: FormData
):
	| { ok: true; input: StudyInput; values: Record<string, unknown> }
	| { ok: false; message: string; values: Record<string, unknown> } {
	const values = {
		name: String(form.get('name') ?? ''),
		instructions: String(form.get('instructions') ?? ''),
		types: form.getAll('types').map(String),
		snapshotId: String(form.get('snapshotId') ?? ''),
		importId: String(form.get('importId') ?? ''),
		itemIds: String(form.get('itemIds') ?? ''),
		modelIds: form.getAll('modelIds').map(String),
		includeReference: form.get('includeReference') === 'on',
		ratersPerQuestion: String(form.get('ratersPerQuestion') ?? '3'),
		allowTies: form.get('allowTies') === 'on',
		leaseMinutes: String(form.get('leaseMinutes') ?? '30')
	};
	const parsed = formSchema.safeParse(values);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return { ok: false, message: `${String(issue.path[0])} ${issue.message}.`, values };
	}
	const d = parsed.data;
	const itemIds = d.itemIds
		.split(/[\s,;]+/)
		.filter(Boolean)
		.map(Number);
	return {
		ok: true,
		values,
		input: {
			name: d.name,
			instructions: d.instructions,
			selection: {
				types: d.types,
				snapshotId: d.snapshotId,
				importId: d.importId,
				itemIds: itemIds.length ? itemIds : undefined
			},
			modelIds: d.modelIds,
			includeReference: d.includeReference,
			ratersPerQuestion: d.ratersPerQuestion,
			allowTies: d.allowTies,
			leaseMinutes: d.leaseMinutes
		}
	};
}
