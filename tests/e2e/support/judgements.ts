// The demo judgements (two review rounds with adjudications, the ranking, rubric and pairwise
// studies, a scoring run) written by the demo's own seed into a spec's copy of the template, by
// accounts of their own: an organiser, two reviewers and three physicians named `${tag}-…`.
import { seedDemoJudgements, type DemoJudges } from '../../../src/lib/server/demo/judgements';
import type { Db } from '../../../src/lib/server/db/client';
import { createUser } from '../../../src/lib/server/domain/people/users';

type Role = 'organiser' | 'reviewer' | 'physician';

/** Seeds the demo judgements by fresh accounts; their ids, for what a spec adds. */
export async function seedJudgementsByNewAccounts(db: Db, tag: string): Promise<DemoJudges> {
	const make = (name: string, role: Role) =>
		createUser(db, {
			email: `${tag}-${name}@${tag}.test`,
			displayName: `${tag}-${name}`,
			roles: [role],
			password: `${tag}-e2e-password`
		}).then((u) => u.id);
	const accounts: DemoJudges = {
		organiser: await make('organiser', 'organiser'),
		reviewers: [await make('r1', 'reviewer'), await make('r2', 'reviewer')],
		physicians: [
			await make('p1', 'physician'),
			await make('p2', 'physician'),
			await make('p3', 'physician')
		]
	};
	await seedDemoJudgements(db, accounts);
	return accounts;
}
