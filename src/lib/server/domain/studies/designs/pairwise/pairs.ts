// Which pairs of answers a pairwise study shows: every pair of each question's answers, or a
// balanced sample of p pairs per question in which every pair of sources (models, the reference)
// appears about equally often across the study. Pure and seeded: the same study plans the same
// pairs on every machine.
import { seededShuffle } from '../../shuffle';

/** One question's answers: its engine id and the source of each answer (a model id or `reference`). */
export interface PlanQuestion {
	questionId: number;
	/** Sources of the question's answers, each at most once. */
	sources: string[];
}

/** A pair of one question: its two sources, in the order of `sourceOrder`. */
export interface PlannedPair {
	questionId: number;
	a: string;
	b: string;
}

/** Sources in a stable order: models by numeric id, then the reference. */
export function sourceOrder(sources: Iterable<string>): string[] {
	const key = (s: string) => (s === 'reference' ? Number.MAX_SAFE_INTEGER : Number(s));
	return [...new Set(sources)].sort((x, y) => key(x) - key(y) || x.localeCompare(y));
}

function allPairs(sources: string[]): [string, string][] {
	const out: [string, string][] = [];
	for (let i = 0; i < sources.length; i++)
		for (let j = i + 1; j < sources.length; j++) out.push([sources[i], sources[j]]);
	return out;
}

/**
 * The pairs a study shows. `all`: every pair of every question's answers. `balanced`: the study's
 * source pairs in one seeded order, cycled through the questions (in the given order), each taking
 * the next `perQuestion` pairs it has both answers of — so over the study every pair is used
 * within one of the same number of times when every question has every source, and about
 * equally otherwise. A question with fewer pairs than asked gets all it has.
 */
export function planPairs(
	questions: readonly PlanQuestion[],
	pairing: { mode: 'all' } | { mode: 'balanced'; perQuestion: number; seed: string }
): PlannedPair[] {
	if (pairing.mode === 'all')
		return questions.flatMap((q) =>
			allPairs(sourceOrder(q.sources)).map(([a, b]) => ({ questionId: q.questionId, a, b }))
		);
	const cycle = seededShuffle(
		allPairs(sourceOrder(questions.flatMap((q) => q.sources))),
		pairing.seed
	);
	const out: PlannedPair[] = [];
	let next = 0;
	for (const q of questions) {
		const has = new Set(q.sources);
		const taken: PlannedPair[] = [];
		// Walk the cycle from where the last question stopped; the pairs this question lacks are
		// passed over (and come round again for the next questions).
		for (let step = 0; step < cycle.length && taken.length < pairing.perQuestion; step++) {
			const [a, b] = cycle[(next + step) % cycle.length];
			if (has.has(a) && has.has(b)) {
				taken.push({ questionId: q.questionId, a, b });
				if (taken.length === pairing.perQuestion) next = (next + step + 1) % cycle.length;
			}
		}
		if (taken.length < pairing.perQuestion) next = (next + 1) % Math.max(1, cycle.length);
		out.push(...taken);
	}
	return out;
}
