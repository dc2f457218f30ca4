// Rubrics an organiser maintains: created from a template or a definition, then changed only by
// adding versions. A version is never updated, so a study that froze one keeps scoring against
// exactly what its raters saw.
import { isDeepStrictEqual } from 'node:util';
import { asc, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../../../db/client';
import { study } from '../../../../db/schema';
import type { StudyState } from '../../../../../constants';
import { DomainError, parseInput } from '../../../../errors';
import { recordAudit } from '../../../audit';
import { rubricDefinitionSchema, type RubricDefinition } from '../../../../../schemas/rubric';
import { BLANK_RUBRIC, HDCEVAL_TEMPLATE } from './hdceval';
import { rubric, rubricStudy, rubricVersion, type Rubric, type RubricVersion } from './schema';

/** The templates a new rubric can start from. */
export const RUBRIC_TEMPLATES = { hdceval: HDCEVAL_TEMPLATE, blank: BLANK_RUBRIC } as const;
export type RubricTemplate = keyof typeof RUBRIC_TEMPLATES;

const rubricNameSchema = z.string().trim().min(1, 'must not be empty').max(200);
const versionNoteSchema = z.string().trim().max(2000, 'is longer than 2,000 characters');

export interface NewRubricInput {
	name: string;
	/** The content of version 1; when absent, `template` gives it. */
	definition?: unknown;
	template?: RubricTemplate;
	note?: string;
}

const newRubricSchema = z.object({
	name: rubricNameSchema,
	definition: z.unknown().optional(),
	template: z.enum(['hdceval', 'blank']).optional(),
	note: versionNoteSchema.default('')
});

/**
 * Validates a definition: the parsed value, or a DomainError `invalid` whose field is the full
 * path of the first problem (`aspects.0.subAspects.1.code`) and whose problems list every one.
 */
export function parseRubricDefinition(input: unknown): RubricDefinition {
	const parsed = rubricDefinitionSchema.safeParse(input);
	if (parsed.success) return parsed.data;
	const issues = parsed.error.issues;
	const path = (p: PropertyKey[]) => p.map(String).join('.');
	const problems = issues.map((i) => `${i.path.length ? `${path(i.path)} ` : ''}${i.message}.`);
	throw new DomainError('invalid', `The rubric is not valid: ${problems[0]}`, {
		field: issues[0].path.length ? path(issues[0].path) : undefined,
		problems
	});
}

async function lockRubric(tx: Tx, rubricId: number): Promise<Rubric> {
	const [row] = await tx.select().from(rubric).where(eq(rubric.id, rubricId)).for('update');
	if (!row) throw new DomainError('not_found', 'No such rubric.');
	return row;
}

async function latestVersion(db: Db | Tx, rubricId: number): Promise<RubricVersion | undefined> {
	const [row] = await db
		.select()
		.from(rubricVersion)
		.where(eq(rubricVersion.rubricId, rubricId))
		.orderBy(desc(rubricVersion.version))
		.limit(1);
	return row;
}

/** Creates a rubric and its version 1 (from `definition`, or else from `template`). */
export async function createRubric(
	db: Db,
	input: NewRubricInput,
	actorId: string
): Promise<{ rubric: Rubric; version: RubricVersion }> {
	const data = parseInput(newRubricSchema, input);
	if (data.definition === undefined && !data.template)
		throw new DomainError('invalid', 'Choose a template or give a definition.', {
			field: 'template'
		});
	const definition = parseRubricDefinition(
		data.definition ?? RUBRIC_TEMPLATES[data.template ?? 'blank']
	);
	return db.transaction(async (tx) => {
		const [taken] = await tx
			.select({ id: rubric.id })
			.from(rubric)
			.where(eq(rubric.name, data.name));
		if (taken)
			throw new DomainError('conflict', `A rubric named “${data.name}” already exists.`, {
				field: 'name'
			});
		const [created] = await tx
			.insert(rubric)
			.values({ name: data.name, createdBy: actorId })
			.returning();
		const [version] = await tx
			.insert(rubricVersion)
			.values({
				rubricId: created.id,
				version: 1,
				definition,
				note: data.note,
				createdBy: actorId
			})
			.returning();
		await recordAudit(tx, {
			actorId,
			action: 'rubric.create',
			objectType: 'rubric',
			objectId: created.id,
			after: { name: created.name, template: data.definition ? null : data.template, version: 1 }
		});
		return { rubric: created, version };
	});
}

/**
 * Saves a definition as the rubric's next version and returns it with `created: true`; when it
 * equals the latest version, nothing is written and that version comes back (`created: false`).
 */
export async function saveRubricVersion(
	db: Db,
	rubricId: number,
	definition: unknown,
	note: string,
	actorId: string
): Promise<{ version: RubricVersion; created: boolean }> {
	const parsed = parseRubricDefinition(definition);
	const versionNote = parseInput(z.object({ note: versionNoteSchema }), { note }).note;
	return db.transaction(async (tx) => {
		// The row lock orders concurrent saves, so two editors cannot both claim version n+1.
		await lockRubric(tx, rubricId);
		const latest = await latestVersion(tx, rubricId);
		// Compared as values: jsonb keeps its keys in its own order, not in the order written.
		if (latest && isDeepStrictEqual(latest.definition, parsed))
			return { version: latest, created: false };
		const number = (latest?.version ?? 0) + 1;
		const [version] = await tx
			.insert(rubricVersion)
			.values({
				rubricId,
				version: number,
				definition: parsed,
				note: versionNote,
				createdBy: actorId
			})
			.returning();
		await recordAudit(tx, {
			actorId,
			action: 'rubric.version',
			objectType: 'rubric',
			objectId: rubricId,
			before: latest ? { version: latest.version } : null,
			after: { version: number, note: versionNote }
		});
		return { version, created: true };
	});
}

export interface RubricSummary {
	id: number;
	name: string;
	createdAt: Date;
	latestVersion: number;
	versions: number;
	/** Studies that use the rubric, whatever their state or frozen version. */
	studies: number;
}

/** Every rubric by name, with its latest version number, version count and studies using it. */
export async function listRubrics(db: Db | Tx): Promise<RubricSummary[]> {
	const rows = await db
		.select({
			id: rubric.id,
			name: rubric.name,
			createdAt: rubric.createdAt,
			latestVersion: sql<number>`max(${rubricVersion.version})`.mapWith(Number),
			versions: count(rubricVersion.id),
			studies:
				sql<number>`(select count(*) from ${rubricStudy} where ${rubricStudy.rubricId} = ${rubric.id})`.mapWith(
					Number
				)
		})
		.from(rubric)
		.innerJoin(rubricVersion, eq(rubricVersion.rubricId, rubric.id))
		.groupBy(rubric.id)
		.orderBy(asc(rubric.name));
	return rows;
}

export interface RubricDetail {
	rubric: Rubric;
	/** Oldest first. */
	versions: { id: number; version: number; createdAt: Date; note: string }[];
	latest: { id: number; version: number; definition: RubricDefinition };
	/** `frozenVersion` is null while the study has not opened (it then uses the latest). */
	studies: { id: number; name: string; state: StudyState; frozenVersion: number | null }[];
}

/** A rubric with its version history, its latest definition and the studies using it. */
export async function getRubric(db: Db | Tx, id: number): Promise<RubricDetail | null> {
	const [row] = await db.select().from(rubric).where(eq(rubric.id, id));
	if (!row) return null;
	const versions = await db
		.select({
			id: rubricVersion.id,
			version: rubricVersion.version,
			createdAt: rubricVersion.createdAt,
			note: rubricVersion.note
		})
		.from(rubricVersion)
		.where(eq(rubricVersion.rubricId, id))
		.orderBy(asc(rubricVersion.version));
	const latest = await latestVersion(db, id);
	if (!latest) throw new Error(`rubric ${id} has no version`);
	const studies = await db
		.select({
			id: study.id,
			name: study.name,
			state: study.state,
			frozenVersion: rubricVersion.version
		})
		.from(rubricStudy)
		.innerJoin(study, eq(study.id, rubricStudy.studyId))
		.leftJoin(rubricVersion, eq(rubricVersion.id, rubricStudy.rubricVersionId))
		.where(eq(rubricStudy.rubricId, id))
		.orderBy(asc(study.name));
	return {
		rubric: row,
		versions,
		latest: { id: latest.id, version: latest.version, definition: latest.definition },
		studies
	};
}

/** One version of a rubric, or null. */
export async function getRubricVersion(
	db: Db | Tx,
	versionId: number
): Promise<RubricVersion | null> {
	const [row] = await db.select().from(rubricVersion).where(eq(rubricVersion.id, versionId));
	return row ?? null;
}
