// What the scoring screen works out from its state: which answers show together, and which
// scores (or required rationales) are still missing before a submission.
import type { RubricDefinition } from '$lib/schemas/rubric';

interface Answer {
	id: string;
	label: string;
}

/**
 * The answers shown together: one per page, or pairs by position (A | B, C | D, …) with a last
 * odd answer alone, matching the sides the server stores (an even 0-based position is left).
 */
export function pagesOf<T extends Answer>(answers: T[], layout: 'single' | 'side_by_side'): T[][] {
	const size = layout === 'single' ? 1 : 2;
	return Array.from({ length: Math.ceil(answers.length / size) }, (_, i) =>
		answers.slice(i * size, i * size + size)
	);
}

/**
 * Every score missing and every required rationale left empty, in the order shown, worded as
 * the server words them; `first` is the `<answer id>:<CODE>` of the first sub-aspect at fault.
 */
export function missingScores(
	rubric: RubricDefinition,
	answers: Answer[],
	scores: Record<string, number | undefined>,
	rationales: Record<string, string>
): { problems: string[]; first: string | null } {
	const problems: string[] = [];
	let first: string | null = null;
	for (const answer of answers)
		for (const sub of rubric.aspects.flatMap((a) => a.subAspects)) {
			const key = `${answer.id}:${sub.code}`;
			const where = `${answer.label}, ${sub.code} (${sub.name})`;
			const before = problems.length;
			if (scores[key] === undefined) problems.push(`${where}: give a score.`);
			if (sub.rationale === 'required' && !rationales[key]?.trim())
				problems.push(`${where}: this sub-aspect asks for a rationale.`);
			if (problems.length > before) first ??= key;
		}
	return { problems, first };
}
