// The demo's rubric study: a small question set of patient questions answered by the demo models,
// scored on the HDCEval template by two of the demo physicians, and an automatic judge beside
// them, so the agreement page shows a rubric study's figures at first start. Everything goes
// through the domain functions the pages use; every score is fixed by its key.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { assignment, assignmentCandidate, candidate, model } from '../db/schema';
import { sha256Hex } from '../ids';
import { importQuestions, importSetResponses } from '../domain/question-sets';
import {
	changeStudyState,
	claimNext,
	createRubric,
	createStudy,
	importJudgeFile,
	submitScores,
	subAspectsOf,
	type ClaimResult
} from '../domain/studies';
import { DEMO_MODELS } from './demo-data';

/** The demo's rubric study, open, with most questions scored by two physicians. */
export const DEMO_RUBRIC_STUDY = 'Demo rubric study: patient questions';
export const DEMO_QUESTION_SET = 'Demo patient questions';
const DEMO_ACTOR = { userId: null, label: 'demo seed' };
const START = Date.parse('2026-01-14T09:00:00Z');
const MINUTE = 60_000;

/** Fictional patient questions with a case note and a clinician's reference answer. */
const QUESTIONS = [
	[
		'pq1',
		'I have had a dry cough for three weeks after a cold. Should I worry?',
		'Adult, non-smoker, no fever now.',
		'A cough lasting three weeks after a cold is common and usually settles, but it is worth seeing a doctor if it lasts beyond eight weeks, or sooner with breathlessness, blood, weight loss or night sweats.'
	],
	[
		'pq2',
		'Can I take ibuprofen while on blood pressure tablets?',
		'Takes an ACE inhibitor daily.',
		'Occasional short courses are often acceptable, but ibuprofen can raise blood pressure and strain the kidneys with ACE inhibitors; paracetamol is usually preferred. Ask your pharmacist or doctor.'
	],
	[
		'pq3',
		'My child has a fever of 38.5 °C. When should I take her to a doctor?',
		'Child aged 2, drinking well.',
		'Most fevers in a drinking, alert toddler can be managed at home; seek care for a rash that does not fade, breathing difficulty, drowsiness, signs of dehydration or a fever beyond five days.'
	],
	[
		'pq4',
		'Is it safe to exercise with type 2 diabetes?',
		'On metformin, HbA1c 7.2 %.',
		'Yes: regular exercise improves glucose control. Start gradually, check feet for sores, and carry a snack if you also take insulin or a sulfonylurea.'
	],
	[
		'pq5',
		'Why do my ankles swell in the evening?',
		'Age 64, started amlodipine last month.',
		'Evening ankle swelling is a known side effect of amlodipine; it is not dangerous in itself, but tell your doctor, who may adjust the dose or switch medicine, and check for heart or kidney causes.'
	],
	[
		'pq6',
		'How long should I wait to drive after a concussion?',
		'Mild concussion two days ago, no loss of consciousness.',
		'Avoid driving until symptoms such as headache, dizziness and poor concentration have gone, usually at least 24 to 48 hours; follow the advice given at discharge.'
	]
] as const;

/** Each demo model's answer: of a quality the model is known for, in its own words. */
function answer(modelIndex: number, q: (typeof QUESTIONS)[number]): string {
	const [, question, , reference] = q;
	const topic = question.replace(/\?$/, '').toLowerCase();
	if (modelIndex === 0) return `${reference} If anything changes quickly, seek care the same day.`;
	if (modelIndex === 1)
		return `Regarding "${topic}": this depends on the person. Many cases are harmless, but a doctor can check. Keep a diary of symptoms and bring it to your appointment.`;
	return `It is probably fine. Rest, drink water and wait a few days.`;
}

/** A score fixed by its key, around a model's typical quality (higher is better). */
function score(base: number, ...key: (string | number)[]): number {
	const u = parseInt(sha256Hex(key.join('|')).slice(0, 12), 16) / 2 ** 48;
	return Math.max(0, Math.min(5, Math.round(base + (u - 0.5) * 2)));
}

/** Quality of each answer for scores: the first model best, the reference close, the last worst. */
const QUALITY: Record<string, number> = {
	[DEMO_MODELS[0]]: 4,
	[DEMO_MODELS[1]]: 3,
	[DEMO_MODELS[2]]: 1.5,
	reference: 4.3
};

/**
 * Imports the question set and the models' answers, builds the HDCEval rubric, opens a rubric
 * study with k = 2, has two physicians score all but two questions, and imports an automatic
 * judge's scores of every answer.
 */
export async function seedRubricStudy(
	db: Db,
	judges: { organiser: string; physicians: readonly string[] }
): Promise<void> {
	const { setId } = await importQuestions(
		db,
		[
			{
				fileName: 'demo-patient-questions.json',
				text: JSON.stringify(
					QUESTIONS.map(([id, question, context, reference]) => ({
						id,
						question,
						context,
						reference_answer: reference
					}))
				)
			}
		],
		{ setName: DEMO_QUESTION_SET, actor: DEMO_ACTOR }
	);
	await importSetResponses(
		db,
		[
			{
				fileName: 'demo-patient-answers.jsonl',
				text: QUESTIONS.flatMap((q) =>
					DEMO_MODELS.map((m, i) =>
						JSON.stringify({ question_id: q[0], model: m, response: answer(i, q) })
					)
				).join('\n')
			}
		],
		{ setName: DEMO_QUESTION_SET, actor: DEMO_ACTOR }
	);
	const { rubric, version } = await createRubric(
		db,
		{ name: 'HDCEval (template)', template: 'hdceval' },
		judges.organiser
	);
	const codes = subAspectsOf(version.definition).map((s) => s.code);
	const models = await db
		.select({ id: model.id })
		.from(model)
		.where(inArray(model.name, [...DEMO_MODELS]))
		.orderBy(asc(model.id));
	const study = await createStudy(
		db,
		{
			name: DEMO_RUBRIC_STUDY,
			design: 'rubric',
			questionSetId: setId,
			rubricId: rubric.id,
			instructions:
				'Score each answer on every sub-aspect (0 = fails it, 5 = fully meets it) and give a short rationale for each score.',
			selection: { types: [] },
			modelIds: models.map((m) => m.id),
			ratersPerQuestion: 2
		},
		judges.organiser
	);
	// The demo answers differ in form on purpose; the organiser confirms the blinding audit.
	await changeStudyState(db, study.id, 'open', judges.organiser, {
		confirm: true,
		now: new Date(START)
	});
	// Two physicians score the first questions of their orders; two questions stay for the demo.
	for (const [p, physician] of judges.physicians.slice(0, 2).entries()) {
		let now = START + (1 + p) * 60 * MINUTE;
		for (let n = 0; n < QUESTIONS.length - 2; n++) {
			const claim: ClaimResult = await claimNext(db, study.id, physician, new Date(now), {
				view: true
			});
			if (claim.status !== 'assigned') break;
			const shown = await shownModels(db, claim.publicId);
			now += 6 * MINUTE;
			await submitScores(
				db,
				physician,
				study.id,
				claim.view!.candidates.map((c) => c.id),
				{
					assignmentId: claim.publicId,
					idempotencyKey: `demo-${claim.publicId}`,
					timeOnTaskMs: 6 * MINUTE,
					layout: p === 0 ? 'single' : 'side_by_side',
					scores: claim.view!.candidates.flatMap((c, i) =>
						codes.map((code) => ({
							answer: c.id,
							subAspect: code,
							score: score(QUALITY[shown[i]] ?? 3, physician, claim.publicId, c.id, code),
							rationale: `Demo rationale for ${code}.`
						}))
					)
				},
				{ now: new Date(now) }
			);
		}
	}
	// An automatic judge of every answer: close to the physicians' view of the models, not equal.
	const lines = QUESTIONS.flatMap(([id]) =>
		[...DEMO_MODELS, 'reference'].map((m) =>
			JSON.stringify({
				question_id: id,
				model: m,
				scores: Object.fromEntries(codes.map((c) => [c, score(QUALITY[m], 'judge', id, m, c)]))
			})
		)
	);
	await importJudgeFile(
		db,
		study.id,
		{ fileName: 'demo-llm-judge.jsonl', text: lines.join('\n') },
		{ judge: 'demo-llm-judge', actor: DEMO_ACTOR }
	);
}

/** The model (or `reference`) of each shown answer of an assignment, in display order. */
async function shownModels(db: Db, publicId: string): Promise<string[]> {
	const rows = await db
		.select({
			position: assignmentCandidate.position,
			model: model.name,
			isReference: candidate.isReference
		})
		.from(assignmentCandidate)
		.innerJoin(assignment, eq(assignment.id, assignmentCandidate.assignmentId))
		.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(assignment.publicId, publicId))
		.orderBy(asc(assignmentCandidate.position));
	return rows.map((r) => (r.isReference ? 'reference' : (r.model ?? '')));
}
