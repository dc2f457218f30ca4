import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { study as studyTable } from '../../db/schema';
import { DomainError } from '../../errors';
import { auditStudy, type StudyBlindingAudit } from './blinding';
import { freezeQuestions } from './studies';

/** Thrown to roll back the trial freeze of a draft study. */
class DryRun extends Error {}

/**
 * The blinding audit of a study as it would open: a draft's questions and candidates are frozen in
 * a transaction that is rolled back, so the audit sees exactly what opening would freeze.
 */
export async function previewStudyAudit(db: Db, studyId: number): Promise<StudyBlindingAudit> {
	let audit: StudyBlindingAudit | undefined;
	try {
		await db.transaction(async (tx) => {
			const [study] = await tx.select().from(studyTable).where(eq(studyTable.id, studyId));
			if (!study) throw new DomainError('not_found', 'No such study.');
			if (study.state !== 'draft') {
				audit = await auditStudy(tx, studyId);
				return;
			}
			await freezeQuestions(tx, study);
			audit = await auditStudy(tx, studyId);
			throw new DryRun();
		});
	} catch (e) {
		if (!(e instanceof DryRun)) throw e;
	}
	return audit!;
}
