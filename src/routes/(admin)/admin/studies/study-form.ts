import { z } from 'zod';
import {
	DETAIL_CHOICES,
	EVIDENCE_MODES,
	PAIRINGS,
	QA_TYPES,
	STUDY_DESIGNS,
	type DetailChoice,
	type QaType
} from '$lib/constants';
import type { StudyInput } from '$lib/server/domain/studies';
import { field } from '$lib/server/forms';
import { MAX_PAIR_SEED, MAX_PAIRS_PER_QUESTION } from './pairing';
import { checkQualityFields, qualityFormFields, qualityFromForm } from './quality-form';

const optionalId = z.preprocess(
	(v) => (v === '' || v === null ? undefined : v),
	z.coerce.number().int().positive().optional()
);
/** The form field of a type's presentation choice (`show_multi_hop`); absent means the default. */
export const showField = (type: QaType) => `show_${type}`;
const showChoice = z.preprocess(
	(v) => (v === '' ? undefined : v),
	z.enum(DETAIL_CHOICES).optional()
);
const showFields: Record<string, typeof showChoice> = Object.fromEntries(
	QA_TYPES.map((t) => [showField(t), showChoice])
);
const withDefault = (value: string) => (v: unknown) => (v === undefined || v === '' ? value : v);

/**
 * The create-study form as posted (checkboxes are present only when ticked), as domain input,
 * plus `confirm` when the organiser pressed "Create anyway" after the warnings.
 */
export const studyFormSchema = z
	.object({
		name: z.string().default(''),
		design: z.preprocess(withDefault('ranking'), z.enum(STUDY_DESIGNS)),
		/** Where the questions come from: `bank` (the QA bank) or a question set's id. */
		source: z.string().default('bank'),
		rubricId: optionalId,
		/** Pairwise studies: every pair per question, or a balanced sample of p pairs. */
		pairing: z.preprocess(
			withDefault('all'),
			z.enum(PAIRINGS, 'choose all pairs or a balanced sample')
		),
		/** Read as text: checked (below) only when a pairwise study samples pairs. */
		pairsPerQuestion: z.string().trim().default(''),
		pairSeed: z
			.string()
			.trim()
			.max(MAX_PAIR_SEED, `must be at most ${MAX_PAIR_SEED} characters`)
			.default(''),
		/** Evidence studies: relations and relevance per assertion or per sentence. */
		evidenceMode: z.preprocess(
			withDefault('assertion'),
			z.enum(EVIDENCE_MODES, 'choose per assertion or per sentence')
		),
		/** Pairwise studies (optional): the rubric whose aspects physicians compare. */
		aspectRubricId: optionalId,
		instructions: z.string().default(''),
		types: field.list(z.enum(QA_TYPES)),
		snapshotId: optionalId,
		importId: optionalId,
		itemIds: z
			.string()
			.default('')
			.refine((s) => /^[\d\s,;]*$/.test(s), 'must be item ids separated by commas or spaces'),
		modelIds: field.list(z.coerce.number().int().positive()),
		includeReference: field.checkbox(),
		ratersPerQuestion: z.preprocess(withDefault('3'), z.coerce.number().int()),
		allowTies: field.checkbox(),
		leaseMinutes: z.preprocess(withDefault('30'), z.coerce.number().int()),
		confirm: z.preprocess((v) => v === '1', z.boolean()),
		...qualityFormFields,
		...showFields
	})
	.superRefine((d, ctx) => {
		checkQualityFields(d, ctx);
		if (d.design !== 'pairwise' || d.pairing !== 'balanced') return;
		const p = d.pairsPerQuestion;
		if (p === '')
			ctx.addIssue({
				code: 'custom',
				path: ['pairsPerQuestion'],
				message: 'Say how many pairs each question gets (p) for a balanced sample.'
			});
		else if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > MAX_PAIRS_PER_QUESTION)
			ctx.addIssue({
				code: 'custom',
				path: ['pairsPerQuestion'],
				message: `Pairs per question must be a whole number from 1 to ${MAX_PAIRS_PER_QUESTION}.`
			});
	})
	.transform((d): StudyInput & { confirm: boolean } => {
		const presentation: Partial<Record<QaType, DetailChoice>> = {};
		for (const t of QA_TYPES) {
			const choice = (d as Record<string, unknown>)[showField(t)] as DetailChoice | undefined;
			if (choice) presentation[t] = choice;
		}
		const itemIds = d.itemIds
			.split(/[\s,;]+/)
			.filter(Boolean)
			.map(Number);
		const setId = /^\d+$/.test(d.source) ? Number(d.source) : undefined;
		return {
			name: d.name,
			design: d.design,
			questionSetId: setId,
			rubricId:
				d.design === 'rubric' ? d.rubricId : d.design === 'pairwise' ? d.aspectRubricId : undefined,
			...(d.design === 'pairwise'
				? {
						pairing: d.pairing,
						pairsPerQuestion: d.pairing === 'balanced' ? Number(d.pairsPerQuestion) : undefined,
						pairSeed: d.pairing === 'balanced' && d.pairSeed ? d.pairSeed : undefined
					}
				: {}),
			...(d.design === 'evidence' ? { evidenceMode: d.evidenceMode } : {}),
			instructions: d.instructions,
			selection: {
				types: d.types,
				snapshotId: d.snapshotId,
				importId: d.importId,
				itemIds: itemIds.length ? itemIds : undefined
			},
			modelIds: d.modelIds,
			includeReference: d.includeReference,
			presentation,
			ratersPerQuestion: d.ratersPerQuestion,
			allowTies: d.allowTies,
			leaseMinutes: d.leaseMinutes,
			...qualityFromForm(d),
			confirm: d.confirm
		};
	});

/** The study form's refusal message: the first field at fault and why. */
export function studyFormMessage(errors: Record<string, string>): string {
	const [name, message] = Object.entries(errors)[0];
	// Messages written as sentences stand alone; zod's fragments ("must …") get the field's name.
	return /^[A-Z]/.test(message) ? message : `${name} ${message}.`;
}
