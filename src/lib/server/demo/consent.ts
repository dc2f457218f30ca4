// The demo portal's information-and-consent text, version 1, accepted by the demo raters so that
// the demo's queues open at once (an organiser's next version asks them again).
import type { Db } from '../db/client';
import { acceptConsent, publishConsent } from '../domain/consent';

export const DEMO_CONSENT = {
	title: 'Taking part in the cliniq-portal demo',
	body: [
		'# What you are asked to do',
		'You review question–answer pairs or judge models’ answers to medical questions. The content is fictional and written for this demo.',
		'',
		'# What is recorded',
		'- Your judgements, with the time you spent on each',
		'- Your acceptance of this text (its version and the time)',
		'',
		'# How it is used',
		'Judgements are combined into agreement figures and leaderboards; they are shown under a pseudonym, never under your name.',
		'',
		'# Withdrawing',
		'You may withdraw from any study at any time, without giving a reason, from your list of studies. If you do, the judgements you made in that study are **excluded** from every figure.'
	].join('\n'),
	withdrawnJudgements: 'exclude'
} as const;

/** Publishes the demo consent text (version 1) and records each rater's acceptance of it. */
export async function seedDemoConsent(
	db: Db,
	organiserId: string,
	raterIds: string[]
): Promise<void> {
	const text = await publishConsent(db, { ...DEMO_CONSENT, studyId: null }, organiserId);
	for (const id of raterIds) await acceptConsent(db, id, text.id);
}
