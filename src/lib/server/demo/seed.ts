import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { institution, user } from '../db/schema';
import type { Role } from '../../constants';
import { randomId } from '../ids';
import { importPassages } from '../domain/imports/passage-import';
import { importQaFiles } from '../domain/imports/qa-import';
import { importResponses } from '../domain/imports/response-import';
import { submitApplication } from '../domain/institutions';
import { createUser } from '../domain/people/users';
import { DEMO_MODELS, demoPassages, demoQaRecords, demoResponses } from './demo-data';
import { seedDemoConsent } from './consent';
import { seedDemoJudgements } from './judgements';
import { silentLog, type StepLog } from '../startup-log';

/** The demo's institution beside the home one: its lead decides the pending demo application. */
export const DEMO_INSTITUTION = {
	name: 'St Example Medical School',
	kind: 'medical_school'
} as const;

export const DEMO_ACCOUNTS: {
	email: string;
	displayName: string;
	roles: Role[];
	/** Belongs to the demo institution (the others to the home institution). */
	demoInstitution?: boolean;
}[] = [
	{ email: 'organiser@demo.test', displayName: 'Olivia Organiser', roles: ['organiser'] },
	{ email: 'reviewer@demo.test', displayName: 'Rafael Reviewer', roles: ['reviewer'] },
	{ email: 'reviewer2@demo.test', displayName: 'Rina Reviewer', roles: ['reviewer'] },
	{ email: 'physician@demo.test', displayName: 'Dr Priya Physician', roles: ['physician'] },
	{ email: 'physician2@demo.test', displayName: 'Dr Paul Physician', roles: ['physician'] },
	{ email: 'physician3@demo.test', displayName: 'Dr Petra Physician', roles: ['physician'] },
	{
		email: 'lead@demo.test',
		displayName: 'Leah Lead',
		roles: ['institution_lead'],
		demoInstitution: true
	}
];

const DEMO_ACTOR = { userId: null, label: 'demo seed' };

/** Imports the demo passages, QA items and model responses through the normal import code. */
export async function importDemoContent(db: Db): Promise<void> {
	await importPassages(
		db,
		{ fileName: 'demo-passages.json', text: JSON.stringify(demoPassages) },
		{ actor: DEMO_ACTOR }
	);
	await importQaFiles(db, [{ fileName: 'demo-qa.json', text: JSON.stringify(demoQaRecords) }], {
		actor: DEMO_ACTOR
	});
	for (const name of DEMO_MODELS) {
		const lines = demoResponses
			.filter((r) => r.model === name)
			.map((r) => {
				const rec = demoQaRecords[r.item] as {
					question: string;
					type: string;
					source: { paragraph_id: string };
				};
				return { ...rec, response: r.response };
			});
		const byType = new Map<string, typeof lines>();
		for (const l of lines) byType.set(l.type, [...(byType.get(l.type) ?? []), l]);
		await importResponses(
			db,
			[...byType].map(([type, inputs]) => ({
				fileName: `${type}.json`,
				text: JSON.stringify({ inputs, responses: inputs.map((i) => i.response) })
			})),
			{ actor: DEMO_ACTOR, model: name }
		);
	}
}

/**
 * On a database with no accounts: creates the demo accounts with random passwords, prints the
 * credentials once, imports the demo content and (unless `judgements` is false) stores the demo
 * judgements: reviews, adjudications, rankings and a scoring run.
 */
export async function ensureDemoData(
	db: Db,
	io: { print: (line: string) => void },
	options: { judgements?: boolean; log?: StepLog } = {}
): Promise<boolean> {
	const log = options.log ?? silentLog;
	const [{ n }] = await db.select({ n: count() }).from(user);
	if (n > 0) return false;
	const lines: string[] = [];
	const ids = new Map<string, string>();
	await log.step(
		'demo: accounts',
		async () => {
			const [demoInstitution] = await db.insert(institution).values(DEMO_INSTITUTION).returning();
			const accounts = DEMO_ACCOUNTS.map(({ demoInstitution: inDemo, ...a }) => ({
				...a,
				password: `demo-${randomId(12)}`,
				...(inDemo ? { institutionId: demoInstitution.id } : {})
			}));
			// Hashed side by side (argon2id runs on libuv's threads, with the usual parameters); each
			// account is still written in a transaction of its own.
			const created = await Promise.all(accounts.map((a) => createUser(db, a)));
			accounts.forEach((a, i) => {
				ids.set(a.email, created[i].id);
				lines.push(`  ${a.roles.join(', ').padEnd(16)} ${a.email.padEnd(24)} ${a.password}`);
			});
			// One application waiting for the demo institution's lead.
			await submitApplication(db, {
				displayName: 'Dr Sam Applicant',
				email: 'sam.applicant@demo.test',
				institutionId: demoInstitution.id,
				role: 'physician',
				specialty: 'Cardiology',
				yearsOfPractice: 6
			});
		},
		() => `${DEMO_ACCOUNTS.length} (argon2id)`
	);
	await log.step('demo: content', () => importDemoContent(db));
	const id = (email: string) => ids.get(email)!;
	await log.step('demo: consent', () =>
		seedDemoConsent(
			db,
			id('organiser@demo.test'),
			DEMO_ACCOUNTS.filter((a) => !a.roles.includes('organiser')).map((a) => id(a.email))
		)
	);
	if (options.judgements ?? true) {
		await seedDemoJudgements(
			db,
			{
				organiser: id('organiser@demo.test'),
				reviewers: [id('reviewer@demo.test'), id('reviewer2@demo.test')],
				physicians: [
					id('physician@demo.test'),
					id('physician2@demo.test'),
					id('physician3@demo.test')
				]
			},
			log
		);
	}
	io.print('');
	io.print('Demo accounts (shown once; create your own with `npx cliniq user create`):');
	for (const line of lines) io.print(line);
	io.print('');
	return true;
}
