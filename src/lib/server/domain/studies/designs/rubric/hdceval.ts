// Starting points for a new rubric: the three aspects of HDCEval's medical evaluation guidelines
// (Patient Question Relevance, Medical Knowledge Correctness, Expression), and an empty shell. The
// level descriptions are this portal's own wording, to be adapted to the team's guideline.
import type { RubricDefinitionInput } from '../../../../../schemas/rubric';

/** Says that a sub-aspect's name is ours: the paper gives only its code. */
const WORKING_NAME =
	'Working name: the HDCEval paper gives only the code; check the name and the levels against the team’s own guideline.';

/** Six level descriptions, score 0 first. */
type Levels = [string, string, string, string, string, string];

function subAspect(code: string, name: string, description: string, levels: Levels) {
	return {
		code,
		name,
		description,
		scale: { min: 0, max: 5 },
		levels,
		rationale: 'required' as const
	};
}

/** HDCEval's guideline as a rubric: 3 aspects, 10 sub-aspects, each scored 0–5 with a rationale. */
export const HDCEVAL_TEMPLATE: RubricDefinitionInput = {
	note:
		'Built from the aspects and sub-aspect codes of HDCEval (Patient Question Relevance, Medical Knowledge Correctness, Expression). ' +
		'The paper names CONT, COND, CONC, ACC and CLAR; the names of INFO, UNC, LANG, TE and INTE are working names of this portal, not the paper’s, ' +
		'and every level description is our own wording: check them against the team’s guideline before a study uses this rubric.',
	aspects: [
		{
			code: 'REL',
			name: 'Patient Question Relevance',
			description: 'Whether the answer speaks to what this patient asked and is worried about.',
			subAspects: [
				subAspect(
					'CONT',
					'Context awareness',
					'Uses what the patient said about themselves and their situation.',
					[
						'Ignores the patient’s situation entirely.',
						'Mentions the situation but answers as if it were absent.',
						'Takes some of the context into account; misses important details.',
						'Uses most of the context; a minor detail is overlooked.',
						'Uses the context well; the answer fits this patient.',
						'Builds the whole answer around the patient’s stated context.'
					]
				),
				subAspect(
					'COND',
					'Relevance to the patient’s condition',
					'Stays on the medical condition the question is about.',
					[
						'About a different condition or no condition at all.',
						'Mostly about other conditions; the patient’s is touched in passing.',
						'Partly on the condition, with much unrelated material.',
						'On the condition, with some digressions.',
						'Focused on the condition; digressions are brief and useful.',
						'Entirely focused on the patient’s condition and what matters for it.'
					]
				),
				subAspect(
					'CONC',
					'Addressing multiple concerns',
					'Answers every question and worry the patient raised, not only the first.',
					[
						'Answers none of the patient’s concerns.',
						'Answers one concern of several; the rest are ignored.',
						'Answers about half of the concerns.',
						'Answers most concerns; one is handled thinly.',
						'Answers every concern; some only briefly.',
						'Answers every concern fully and in a sensible order.'
					]
				)
			]
		},
		{
			code: 'COR',
			name: 'Medical Knowledge Correctness',
			description: 'Whether the medical content agrees with current evidence and guidelines.',
			subAspects: [
				subAspect(
					'ACC',
					'Factual accuracy',
					'The medical statements are true according to current evidence-based practice.',
					[
						'Contains dangerous errors.',
						'Several substantial errors.',
						'One substantial error, or several minor ones.',
						'Minor inaccuracies that would not mislead the patient.',
						'Accurate; a small imprecision at most.',
						'Fully accurate and in line with current guidelines.'
					]
				),
				subAspect(
					'INFO',
					'Completeness of information',
					`Gives the information the patient needs to act on the answer. ${WORKING_NAME}`,
					[
						'Gives no usable medical information.',
						'Leaves out most of what the patient needs.',
						'Covers the basics; important points are missing.',
						'Covers what matters; a useful point is missing.',
						'Complete for the question asked.',
						'Complete, including next steps and when to seek care.'
					]
				),
				subAspect(
					'UNC',
					'Handling of uncertainty',
					`Says where the evidence is uncertain or a diagnosis cannot be made remotely. ${WORKING_NAME}`,
					[
						'States uncertain matters as certain in a way that could harm.',
						'Overstates certainty throughout.',
						'Acknowledges uncertainty once, vaguely.',
						'Names the main uncertainties.',
						'Names the uncertainties and what would resolve them.',
						'Calibrated throughout: clear on what is known, unknown and needs a clinician.'
					]
				)
			]
		},
		{
			code: 'EXP',
			name: 'Expression',
			description:
				'Whether the answer is clear, well organised and suitable for a patient to read.',
			subAspects: [
				subAspect(
					'CLAR',
					'Clarity of response',
					'The patient can understand the answer on a first reading.',
					[
						'Cannot be understood.',
						'Hard to follow; the main point is lost.',
						'Understandable with effort.',
						'Mostly clear; a passage needs rereading.',
						'Clear throughout.',
						'Clear, direct and easy to act on.'
					]
				),
				subAspect(
					'LANG',
					'Language appropriateness',
					`Tone and register suit a patient: respectful, calm, not condescending. ${WORKING_NAME}`,
					[
						'Offensive, alarming or dismissive.',
						'Tone is often inappropriate.',
						'Tone is uneven.',
						'Appropriate with an occasional lapse.',
						'Appropriate throughout.',
						'Appropriate and reassuring without playing anything down.'
					]
				),
				subAspect(
					'TE',
					'Terminology explained',
					`Medical terms are avoided or explained in plain words. ${WORKING_NAME}`,
					[
						'Dense jargon, nothing explained.',
						'Most terms unexplained.',
						'Some terms explained, key ones not.',
						'Most terms explained.',
						'Every necessary term explained.',
						'Plain language throughout; the few terms used are explained well.'
					]
				),
				subAspect(
					'INTE',
					'Internal coherence',
					`The parts of the answer agree with each other and follow a logical order. ${WORKING_NAME}`,
					[
						'Contradicts itself on the main point.',
						'Several contradictions or a confusing order.',
						'A contradiction or jump that the reader must work around.',
						'Consistent; the order could be better.',
						'Consistent and logically ordered.',
						'Consistent, well ordered, each part building on the last.'
					]
				)
			]
		}
	]
};

/** An empty rubric to fill in: one aspect with one sub-aspect scored 0–5. */
export const BLANK_RUBRIC: RubricDefinitionInput = {
	note: '',
	aspects: [
		{
			code: 'A1',
			name: 'First aspect',
			description: '',
			subAspects: [
				{
					code: 'A1_1',
					name: 'First sub-aspect',
					description: '',
					scale: { min: 0, max: 5 },
					levels: ['', '', '', '', '', ''],
					rationale: 'optional'
				}
			]
		}
	]
};
