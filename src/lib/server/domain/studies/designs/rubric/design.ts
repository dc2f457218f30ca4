// The rubric design's plug into the study engine (designs/registry.ts): a rubric study names a
// rubric at creation and freezes its latest version at the first opening.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import type { StudyDesignPlug } from '../plug';
import { rubricStudyBattles } from './battles';
import { rubric, rubricStudy, rubricVersion } from './schema';
import { rubricLabels } from './labels';

export const rubricDesign: StudyDesignPlug = {
	labels: rubricLabels,
	async onCreate(tx, study, input) {
		if (!input.rubricId)
			throw new DomainError('invalid', 'Choose the rubric this study scores with.', {
				field: 'rubricId'
			});
		const [known] = await tx
			.select({ id: rubric.id })
			.from(rubric)
			.where(eq(rubric.id, input.rubricId));
		if (!known)
			throw new DomainError('invalid', 'The chosen rubric does not exist.', { field: 'rubricId' });
		await tx.insert(rubricStudy).values({ studyId: study.id, rubricId: input.rubricId });
	},
	async onFirstOpen(tx, study) {
		const [row] = await tx
			.select({ rubricId: rubricStudy.rubricId })
			.from(rubricStudy)
			.where(eq(rubricStudy.studyId, study.id));
		if (!row) throw new DomainError('invalid', 'This rubric study has no rubric.');
		const [latest] = await tx
			.select({ id: rubricVersion.id })
			.from(rubricVersion)
			.where(eq(rubricVersion.rubricId, row.rubricId))
			.orderBy(desc(rubricVersion.version))
			.limit(1);
		if (!latest)
			throw new DomainError('invalid', 'The study’s rubric has no version to score with.');
		await tx
			.update(rubricStudy)
			.set({ rubricVersionId: latest.id })
			.where(eq(rubricStudy.studyId, study.id));
	},
	async configuration(db, studyId) {
		return { rubric: await studyRubric(db, studyId) };
	},
	battles: rubricStudyBattles,
	noun: 'score sheet',
	screenPath: (publicId) => `/rank/rubric/${publicId}`
};

/**
 * The rubric of a rubric study: its name, its latest version, and the version frozen at opening
 * with its definition (null while a draft). Null for a study of another design.
 */
export async function studyRubric(db: Db, studyId: number) {
	const [row] = await db
		.select({
			rubricId: rubric.id,
			name: rubric.name,
			frozenVersionId: rubricStudy.rubricVersionId
		})
		.from(rubricStudy)
		.innerJoin(rubric, eq(rubric.id, rubricStudy.rubricId))
		.where(eq(rubricStudy.studyId, studyId));
	if (!row) return null;
	const versions = await db
		.select({
			id: rubricVersion.id,
			version: rubricVersion.version,
			definition: rubricVersion.definition
		})
		.from(rubricVersion)
		.where(eq(rubricVersion.rubricId, row.rubricId))
		.orderBy(desc(rubricVersion.version));
	const frozen = versions.find((v) => v.id === row.frozenVersionId) ?? null;
	return {
		id: row.rubricId,
		name: row.name,
		latestVersion: versions[0]?.version ?? null,
		frozenVersion: frozen?.version ?? null,
		definition: frozen?.definition ?? null
	};
}
