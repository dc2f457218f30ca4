import type { QaTypeValue } from '../../schemas/qa-record';

/** A valid ClinIQLink record of each type, written for tests; `n` varies question and paragraph. */
export function validRecord(type: QaTypeValue, n = 1): Record<string, unknown> {
	const source = { isbn: '978-0-00-000000-0', page: 10 + n, paragraph_id: `test-p${n}-para01` };
	switch (type) {
		case 'true_false':
			return {
				question: `Metformin is first-line for type 2 diabetes (${n}).`,
				answer: 'True',
				source,
				type
			};
		case 'multiple_choice':
			return {
				question: `Which drug class is first-line for uncomplicated hypertension under 55 (${n})?`,
				options: ['ACE inhibitors', 'Beta blockers', 'Alpha blockers', 'Loop diuretics'],
				correct_answer: 'ACE inhibitors',
				source,
				type
			};
		case 'list':
			return {
				question: `Which are symptoms of hypothyroidism (${n})?`,
				options: ['Weight gain', 'Cold intolerance', 'Tremor', 'Constipation', 'Heat intolerance'],
				answer: ['Weight gain', 'Cold intolerance', 'Constipation'],
				source,
				type
			};
		case 'short_answer':
			return {
				question: `What does HbA1c measure (${n})?`,
				answer: 'Average blood glucose over about three months.',
				source,
				type
			};
		case 'short_inverse':
			return {
				question: `Why is warfarin monitored with INR (${n})?`,
				answer: 'Warfarin is monitored with platelet counts.',
				false_answer: 'Warfarin is monitored with platelet counts.',
				incorrect_explanation:
					'platelet counts do not reflect warfarin effect; INR measures clotting time.',
				source,
				type
			};
		case 'multi_hop':
			return {
				question: `A patient on an ACE inhibitor develops a dry cough; what next (${n})?`,
				answer: 'Switch to an angiotensin receptor blocker.',
				reasoning: [
					'Step 1: Dry cough is a known ACE inhibitor effect caused by bradykinin.',
					'Step 2: ARBs do not raise bradykinin.',
					'Step 3: So an ARB keeps the benefit without the cough.'
				],
				source,
				type
			};
		case 'multi_hop_inverse':
			return {
				question: `Why does gout flare after starting a thiazide (${n})?`,
				answer: 'Thiazides lower uric acid, which triggers flares.',
				reasoning: [
					'Step 1: Gout is caused by urate crystal deposition.',
					'Step 2: Thiazides lower serum uric acid.',
					'Step 3: Falling urate precipitates flares.'
				],
				incorrect_reasoning_step: [
					'- Step 2 contains the incorrect inference that thiazides lower uric acid.',
					'- Explanation: thiazides reduce renal urate excretion and raise serum uric acid.'
				],
				source,
				type
			};
	}
}
