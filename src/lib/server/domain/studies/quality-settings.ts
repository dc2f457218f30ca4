// A study's settings for its raters' quality: its purpose (a benchmark study, or a qualification
// round of gold questions), the round a benchmark study requires, its hidden gold rate, the pass
// (or flag) mark and a round's attempts. Set at creation and changed until the study closes; the
// purpose stays what it was created as.
import { and, asc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { STUDY_PURPOSES, type StudyDesign } from '../../../constants';
import type { Db, Tx } from '../../db/client';
import { study as studyTable, type Study } from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import { recordAudit } from '../audit';

/** Fewest and most claims per hidden gold check (one gold check in every N). */
export const GOLD_EVERY = { min: 2, max: 1000 } as const;
/** Questions in one attempt of a qualification round, and attempts a rater may take. */
export const QUESTIONS_PER_ATTEMPT = { min: 1, max: 100 } as const;
export const MAX_ATTEMPTS = { min: 1, max: 10 } as const;

const whole = (what: string, { min, max }: { min: number; max: number }) =>
	z
		.number(`${what} must be a whole number`)
		.int(`${what} must be a whole number`)
		.min(min, `${what} must be from ${min} to ${max}`)
		.max(max, `${what} must be from ${min} to ${max}`);

/** The settings that can change while a study is not closed (everything but its purpose). */
export const qualitySettingsSchema = z.object({
	/** Benchmark studies: the qualification round (of the same design) a rater must pass first. */
	qualificationStudyId: z.number().int().positive().nullable().default(null),
	/** Benchmark studies: one hidden gold check in every `goldEvery` claims; null for none. */
	goldEvery: whole('The gold rate', GOLD_EVERY).nullable().default(null),
	/** A round's pass mark; a benchmark study's accuracy below which a rater is flagged (0–1). */
	passMark: z
		.number('The mark must be a number')
		.min(0, 'The mark must be from 0 to 1')
		.max(1, 'The mark must be from 0 to 1')
		.default(0.8),
	questionsPerAttempt: whole('Questions per attempt', QUESTIONS_PER_ATTEMPT).default(5),
	maxAttempts: whole('Attempts', MAX_ATTEMPTS).default(2)
});
export type QualitySettings = z.output<typeof qualitySettingsSchema>;
export type QualitySettingsInput = z.input<typeof qualitySettingsSchema>;

/** What `studyInputSchema` adds: the settings, and the purpose fixed at creation. */
export const qualityInputShape = {
	purpose: z.enum(STUDY_PURPOSES).default('benchmark'),
	...qualitySettingsSchema.shape
};

/**
 * Refuses settings that do not fit the study (`invalid`, naming the field): a round requires no
 * round and has no hidden checks (all its questions are gold); a benchmark study's round must be
 * an existing qualification round of the same design.
 */
export async function checkQualitySettings(
	db: Db | Tx,
	design: StudyDesign,
	purpose: Study['purpose'],
	settings: QualitySettings
): Promise<void> {
	if (purpose === 'qualification') {
		if (settings.qualificationStudyId !== null)
			throw new DomainError('invalid', 'A qualification round cannot require another round.', {
				field: 'qualificationStudyId'
			});
		if (settings.goldEvery !== null)
			throw new DomainError(
				'invalid',
				'Every question of a qualification round is gold; a hidden gold rate is for benchmark studies.',
				{ field: 'goldEvery' }
			);
		return;
	}
	if (settings.qualificationStudyId === null) return;
	const [round] = await db
		.select({ name: studyTable.name, design: studyTable.design, purpose: studyTable.purpose })
		.from(studyTable)
		.where(eq(studyTable.id, settings.qualificationStudyId));
	if (!round || round.purpose !== 'qualification')
		throw new DomainError(
			'invalid',
			'The required round must be an existing qualification round.',
			{
				field: 'qualificationStudyId'
			}
		);
	if (round.design !== design)
		throw new DomainError(
			'invalid',
			`The required round must be of the same design: “${round.name}” is a ${round.design} round, this is a ${design} study.`,
			{ field: 'qualificationStudyId' }
		);
}

/** The qualification rounds an organiser can require (every design; the form filters by design). */
export async function listQualificationRounds(db: Db) {
	return db
		.select({
			id: studyTable.id,
			name: studyTable.name,
			design: studyTable.design,
			state: studyTable.state
		})
		.from(studyTable)
		.where(and(eq(studyTable.purpose, 'qualification'), ne(studyTable.state, 'closed')))
		.orderBy(asc(studyTable.name));
}

/**
 * Changes a study's quality settings (any state but closed), checked as at creation; records an
 * audit event with the settings before and after. Returns the updated study.
 */
export async function updateQualitySettings(
	db: Db,
	studyId: number,
	input: QualitySettingsInput,
	actorId: string
): Promise<Study> {
	const settings = parseInput(qualitySettingsSchema, input);
	return db.transaction(async (tx) => {
		const [current] = await tx
			.select()
			.from(studyTable)
			.where(eq(studyTable.id, studyId))
			.for('update');
		if (!current) throw new DomainError('not_found', 'No such study.');
		if (current.state === 'closed')
			throw new DomainError('locked', 'A closed study keeps its settings as they were.');
		await checkQualitySettings(tx, current.design, current.purpose, settings);
		const [updated] = await tx
			.update(studyTable)
			.set(settings)
			.where(eq(studyTable.id, studyId))
			.returning();
		await recordAudit(tx, {
			actorId,
			action: 'study.quality_settings',
			objectType: 'study',
			objectId: studyId,
			before: pick(current),
			after: pick(updated)
		});
		return updated;
	});
}

const pick = (s: Study): QualitySettings => ({
	qualificationStudyId: s.qualificationStudyId,
	goldEvery: s.goldEvery,
	passMark: s.passMark,
	questionsPerAttempt: s.questionsPerAttempt,
	maxAttempts: s.maxAttempts
});
