// What a rubric is: aspects → sub-aspects, each with a score scale, a description per level and a
// rationale rule. Validated here once; stored as a rubric version's `definition`.
import { z } from 'zod';

export const RATIONALE_RULES = ['required', 'optional', 'off'] as const;
export type RationaleRule = (typeof RATIONALE_RULES)[number];

const code = z
	.string()
	.trim()
	.regex(
		/^[A-Z][A-Z0-9_]{0,15}$/,
		'must be 1–16 capital letters, digits or _, starting with a letter'
	);
const label = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

export const subAspectSchema = z
	.object({
		code,
		name: label(120),
		description: z.string().trim().max(2000).default(''),
		scale: z
			.object({
				min: z.number().int().min(0).max(10),
				max: z.number().int().min(1).max(10)
			})
			.default({ min: 0, max: 5 })
			.refine((s) => s.max > s.min, 'the highest score must be above the lowest'),
		/** One description per level, lowest first (may be empty strings). */
		levels: z.array(z.string().trim().max(1000)).default([]),
		rationale: z.enum(RATIONALE_RULES).default('optional')
	})
	.transform((s) => ({
		...s,
		levels: Array.from({ length: s.scale.max - s.scale.min + 1 }, (_, i) => s.levels[i] ?? '')
	}))
	.refine((s) => s.levels.length === s.scale.max - s.scale.min + 1, {
		message: 'needs one level description per score',
		path: ['levels']
	});
export type SubAspect = z.output<typeof subAspectSchema>;

export const aspectSchema = z.object({
	code,
	name: label(120),
	description: z.string().trim().max(2000).default(''),
	subAspects: z.array(subAspectSchema).min(1, 'needs at least one sub-aspect').max(20)
});
export type Aspect = z.output<typeof aspectSchema>;

export const rubricDefinitionSchema = z
	.object({
		aspects: z.array(aspectSchema).min(1, 'needs at least one aspect').max(12),
		/** Shown with the rubric (for example, which names are working names). */
		note: z.string().trim().max(4000).default('')
	})
	.superRefine((d, ctx) => {
		const seen = new Set<string>();
		d.aspects.forEach((a, i) => {
			for (const [j, s] of a.subAspects.entries()) {
				if (seen.has(s.code) || d.aspects.some((x) => x.code === s.code))
					ctx.addIssue({
						code: 'custom',
						message: `code ${s.code} is used twice`,
						path: ['aspects', i, 'subAspects', j, 'code']
					});
				seen.add(s.code);
			}
			if (d.aspects.findIndex((x) => x.code === a.code) !== i)
				ctx.addIssue({
					code: 'custom',
					message: `code ${a.code} is used twice`,
					path: ['aspects', i, 'code']
				});
		});
	});
export type RubricDefinition = z.output<typeof rubricDefinitionSchema>;
export type RubricDefinitionInput = z.input<typeof rubricDefinitionSchema>;

/** Every sub-aspect of a rubric in its order, with the aspect it belongs to. */
export function subAspectsOf(d: RubricDefinition): (SubAspect & { aspect: string })[] {
	return d.aspects.flatMap((a) => a.subAspects.map((s) => ({ ...s, aspect: a.code })));
}
