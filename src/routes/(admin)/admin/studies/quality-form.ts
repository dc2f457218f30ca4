// The "Raters' quality" fields as posted, shared by the create-study form and the settings form of
// the gold page: read as text, checked with one message per field, turned into domain settings
// (marks as a share 0–1, a blank gold rate as none). The fields of the other purpose are ignored:
// the form hides them but still posts them.
import { z } from 'zod';
import { STUDY_PURPOSES, type StudyPurpose } from '$lib/constants';
import {
	GOLD_EVERY,
	MAX_ATTEMPTS,
	QUESTIONS_PER_ATTEMPT,
	type QualitySettingsInput
} from '$lib/server/domain/studies';

const text = z.string().trim().default('');

/** The fields as posted (every one text; checked by `checkQualityFields`). */
export const qualityFormFields = {
	purpose: z.preprocess(
		(v) => (v === undefined || v === '' ? 'benchmark' : v),
		z.enum(STUDY_PURPOSES, 'choose a benchmark study or a qualification round')
	),
	qualificationStudyId: text,
	goldEvery: text,
	/** Benchmark studies: the accuracy (%) below which a rater is flagged. */
	flagMark: text,
	/** Qualification rounds: the accuracy (%) an attempt must reach. */
	passMark: text,
	questionsPerAttempt: text,
	maxAttempts: text
};

type Posted = { purpose: StudyPurpose } & Record<
	Exclude<keyof typeof qualityFormFields, 'purpose'>,
	string
>;

const isWhole = (s: string, { min, max }: { min: number; max: number }) =>
	/^\d+$/.test(s) && Number(s) >= min && Number(s) <= max;
const isPercent = (s: string) => /^\d+(\.\d+)?$/.test(s) && Number(s) <= 100;

/** Adds one issue per field at fault, for the purpose chosen (blank marks take the defaults). */
export function checkQualityFields(d: Posted, ctx: z.RefinementCtx): void {
	const issue = (path: string, message: string) =>
		ctx.addIssue({ code: 'custom', path: [path], message });
	if (d.purpose === 'benchmark') {
		if (d.qualificationStudyId !== '' && !/^\d+$/.test(d.qualificationStudyId))
			issue('qualificationStudyId', 'Choose a qualification round from the list.');
		if (d.goldEvery !== '' && !isWhole(d.goldEvery, GOLD_EVERY))
			issue(
				'goldEvery',
				`The gold rate must be a whole number from ${GOLD_EVERY.min} to ${GOLD_EVERY.max} (1 gold check in every N questions), or blank for none.`
			);
		if (d.flagMark !== '' && !isPercent(d.flagMark))
			issue('flagMark', 'The flag mark must be a percentage from 0 to 100.');
		return;
	}
	if (d.passMark !== '' && !isPercent(d.passMark))
		issue('passMark', 'The pass mark must be a percentage from 0 to 100.');
	if (d.questionsPerAttempt !== '' && !isWhole(d.questionsPerAttempt, QUESTIONS_PER_ATTEMPT))
		issue(
			'questionsPerAttempt',
			`Questions per attempt must be a whole number from ${QUESTIONS_PER_ATTEMPT.min} to ${QUESTIONS_PER_ATTEMPT.max}.`
		);
	if (d.maxAttempts !== '' && !isWhole(d.maxAttempts, MAX_ATTEMPTS))
		issue(
			'maxAttempts',
			`Attempts must be a whole number from ${MAX_ATTEMPTS.min} to ${MAX_ATTEMPTS.max}.`
		);
}

const percent = (s: string, fallback: number) => (s === '' ? fallback : Number(s) / 100);
const whole = (s: string, fallback: number) => (s === '' ? fallback : Number(s));

/** The checked fields as domain settings: only those of the purpose chosen. */
export function qualityFromForm(d: Posted): QualitySettingsInput & { purpose: StudyPurpose } {
	if (d.purpose === 'benchmark')
		return {
			purpose: 'benchmark',
			qualificationStudyId: d.qualificationStudyId === '' ? null : Number(d.qualificationStudyId),
			goldEvery: d.goldEvery === '' ? null : Number(d.goldEvery),
			passMark: percent(d.flagMark, 0.8)
		};
	return {
		purpose: 'qualification',
		qualificationStudyId: null,
		goldEvery: null,
		passMark: percent(d.passMark, 0.8),
		questionsPerAttempt: whole(d.questionsPerAttempt, 5),
		maxAttempts: whole(d.maxAttempts, 2)
	};
}
