/** The part of a claim's answer that is remembered (a claim, as `queue.ts` returns it). */
interface ClaimShown {
	status: string;
	publicId?: string;
	view?: {
		study: { id: number; allowTies: boolean };
		assignment: { shownAt: string };
		candidates: { id: string; position: number }[];
	} | null;
}

/**
 * What a submission to an assignment is validated against that never changes once the
 * assignment is made: its physician, study, whether the study allows ties, when it was shown and
 * the shown answers' opaque ids and positions.
 */
export interface ShownFacts {
	physicianId: string;
	studyId: number;
	allowTies: boolean;
	shownAt: string;
	shown: { id: string; position: number }[];
}

/** How many live assignments this process keeps the shown facts of (oldest dropped first). */
const LIMIT = 10_000;
const known = new Map<string, ShownFacts>();

/**
 * Keeps the shown facts of an assignment this process just handed out with its view, so the
 * physician's submission can be validated without reading them again. Safe to lose: without
 * them, a submission reads them from the database (`ranking_submission_facts`). Whether the
 * assignment is still open to the submission is always decided by the database, under a lock.
 */
export function rememberShown(physicianId: string, claim: ClaimShown) {
	if (claim.status !== 'assigned' || !claim.view || !claim.publicId) return;
	const view = claim.view;
	if (known.size >= LIMIT) known.delete(known.keys().next().value!);
	known.set(claim.publicId, {
		physicianId,
		studyId: view.study.id,
		allowTies: view.study.allowTies,
		shownAt: view.assignment.shownAt,
		shown: view.candidates.map((c) => ({ id: c.id, position: c.position }))
	});
}

/** The kept shown facts of the physician's assignment, if this process handed it out. */
export function recallShown(publicId: string, physicianId: string): ShownFacts | null {
	const facts = known.get(publicId);
	return facts && facts.physicianId === physicianId ? facts : null;
}

/** Drops the kept facts of an assignment that is no longer open (submitted). */
export function forgetShown(publicId: string) {
	known.delete(publicId);
}
