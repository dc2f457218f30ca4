// The end-to-end template: one database with the migrations, the demo content, the e2e accounts
// and a session for each. Every spec file gets its own copy of it (see ./portal.ts), so no spec
// sees what another one did.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession } from '../../../src/lib/server/auth/session';
import { migrateDatabase, openDatabase } from '../../../src/lib/server/db/client';
import { createScratchDatabase } from '../../../src/lib/server/db/scratch';
import { importDemoContent } from '../../../src/lib/server/demo/seed';
import { createUser } from '../../../src/lib/server/domain/people/users';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './accounts';

/** Where the template is described for the workers (written by the global setup). */
const TEMPLATE_FILE = 'test-results/e2e-template.json';

export interface E2eTemplate {
	/** `postgres`: a template database on the server; `pglite`: a data folder to copy. */
	kind: 'postgres' | 'pglite';
	/** PostgreSQL: the server URL; PGlite: the template's data folder. */
	location: string;
	/** PostgreSQL: the template database's name. */
	name?: string;
	/** Session token of each e2e account, valid in every copy. */
	sessions: Record<string, string>;
}

/** Builds the template (on E2E_DATABASE_URL's server when set, else PGlite) and describes it. */
export async function buildTemplate(): Promise<E2eTemplate> {
	const serverUrl = process.env.E2E_DATABASE_URL;
	let url: string;
	let template: E2eTemplate;
	if (serverUrl) {
		const db = await createScratchDatabase(serverUrl, {
			name: `cliniq_e2e_template_${process.pid}`
		});
		url = db.url;
		template = { kind: 'postgres', location: serverUrl, name: db.name, sessions: {} };
	} else {
		const dir = mkdtempSync(join(tmpdir(), 'cliniq-e2e-template-'));
		url = `pglite:${dir}`;
		template = { kind: 'pglite', location: dir, sessions: {} };
	}
	const handle = await openDatabase(url, { max: 1 });
	try {
		await migrateDatabase(handle);
		await importDemoContent(handle.db);
		for (const [key, account] of Object.entries(E2E_ACCOUNTS)) {
			const user = await createUser(handle.db, {
				...account,
				roles: [...account.roles],
				password: E2E_PASSWORD
			});
			template.sessions[key] = (await createSession(handle.db, user.id)).token;
		}
	} finally {
		await handle.close();
	}
	mkdirSync('test-results', { recursive: true });
	writeFileSync(TEMPLATE_FILE, JSON.stringify(template));
	return template;
}

/** The template the global setup built. */
export function readTemplate(): E2eTemplate {
	return JSON.parse(readFileSync(TEMPLATE_FILE, 'utf8')) as E2eTemplate;
}

/** Removes the template (global teardown). */
export async function dropTemplate(template: E2eTemplate): Promise<void> {
	if (template.kind === 'pglite') rmSync(template.location, { recursive: true, force: true });
	else {
		const { adminUrl } = await import('../../../src/lib/server/db/scratch');
		const { default: postgres } = await import('postgres');
		const admin = postgres(adminUrl(template.location), { max: 1, onnotice: () => {} });
		try {
			await admin.unsafe(`drop database if exists ${template.name} with (force)`);
		} finally {
			await admin.end();
		}
	}
	rmSync(TEMPLATE_FILE, { force: true });
}
