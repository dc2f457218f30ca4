import { error, fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	applyListOp,
	checkCorrection,
	contentHash,
	type CorrectionErrors,
	correctionStart,
	type CorrectionValues,
	diffRecords,
	type FieldDiff,
	saveCorrection,
	valuesFromForm
} from '$lib/server/domain/items';
import { getDispute, transitionDispute } from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import type { Actions, PageServerLoad, RequestEvent } from './$types';

const disputeParam = z.coerce.number().int().positive().optional().catch(undefined);
const saveFields = z.object({
	reason: z.string().trim().max(4000, 'The reason is longer than 4,000 characters.'),
	base_version: z.coerce.number().int().positive()
});

/** The item and, for a correction that upholds a dispute, the dispute (under review, same item). */
async function start({ params, url }: Pick<RequestEvent, 'params' | 'url'>) {
	const db = getDb();
	const found = await correctionStart(db, Number(params.id));
	if (!found) error(404, `There is no item ${params.id}.`);
	const disputeId = disputeParam.parse(url.searchParams.get('dispute') ?? undefined);
	if (disputeId === undefined) return { ...found, dispute: null };
	const d = await getDispute(db, disputeId);
	if (!d || d.dispute.itemId !== found.item.id)
		error(404, `There is no dispute ${disputeId} about item ${found.item.id}.`);
	if (!d.next.includes('upheld'))
		error(409, `Dispute ${disputeId} is not under review, so it cannot be upheld now.`);
	return { ...found, dispute: { id: d.dispute.id, reason: d.dispute.reason } };
}

type Payload = {
	values: CorrectionValues;
	errors: CorrectionErrors;
	preview?: FieldDiff[];
	message?: string;
	code?: 'invalid' | 'conflict';
};

/** The form refused: its values back, a message per field and one above the form. */
function refuse(payload: Payload) {
	const n = Object.keys(payload.errors).length;
	return fail(400, {
		...payload,
		code: 'invalid' as const,
		message:
			payload.message ??
			(n === 1 ? Object.values(payload.errors)[0] : `${n} fields need attention; see each field.`)
	});
}

export const load: PageServerLoad = async (event) => {
	requireRole(event.locals, 'organiser', event.url);
	const s = await start(event);
	return {
		item: { id: s.item.id, type: s.item.type, version: s.item.currentVersion },
		values: s.values,
		dispute: s.dispute
	};
};

export const actions: Actions = {
	/** A list editor's step (add, remove, move a row) when the page runs without JavaScript. */
	edit: async ({ locals, request }) => {
		requireRole(locals, 'organiser');
		const form = await request.formData();
		const op = form.get('op');
		const values = valuesFromForm(form);
		return { values: typeof op === 'string' ? applyListOp(values, op) : values, errors: {} };
	},
	preview: async (event) => {
		requireRole(event.locals, 'organiser');
		const s = await start(event);
		const values = valuesFromForm(await event.request.formData());
		const checked = checkCorrection(s.record, values);
		if (!checked.ok) return refuse({ values, errors: checked.errors });
		if (contentHash(checked.record) === s.version.contentHash)
			return refuse({
				values,
				errors: {},
				message: 'Nothing differs from the current version; change a field first.'
			});
		return { values, errors: {}, preview: diffRecords(s.record, checked.record) };
	},
	save: async (event) => {
		const actor = requireRole(event.locals, 'organiser');
		const s = await start(event);
		const form = await event.request.formData();
		const values = valuesFromForm(form);
		const checked = checkCorrection(s.record, values);
		if (!checked.ok) return refuse({ values, errors: checked.errors });
		const preview = diffRecords(s.record, checked.record);
		const extra = z.safeParse(saveFields, Object.fromEntries(form));
		if (!extra.success)
			return refuse({ values, preview, errors: { form: 'Open the item again.' } });
		const { reason, base_version: baseVersion } = extra.data;
		if (!reason) return refuse({ values, preview, errors: { reason: 'Give the reason.' } });
		try {
			if (s.dispute) {
				await transitionDispute(getDb(), actor.id, s.dispute.id, {
					to: 'upheld',
					remedy: 'correct',
					comment: reason,
					record: checked.record,
					baseVersion
				});
			} else {
				await saveCorrection(getDb(), actor.id, {
					itemId: s.item.id,
					record: checked.record,
					reason,
					baseVersion
				});
			}
		} catch (e) {
			return failWith(e, { values, preview, errors: {} });
		}
		redirect(
			303,
			s.dispute
				? `/admin/verification/disputes/${s.dispute.id}`
				: `/admin/items/${s.item.id}?corrected=${baseVersion + 1}`
		);
	}
};
