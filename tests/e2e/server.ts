// Prepares a fresh database for the end-to-end run, creates the test accounts and a session for
// each directly in the database, then starts the production build on it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSession } from '../../src/lib/server/auth/session';
import { migrateDatabase, openDatabase } from '../../src/lib/server/db/client';
import { createScratchDatabase } from '../../src/lib/server/db/scratch';
import { importDemoContent } from '../../src/lib/server/demo/seed';
import { createUser } from '../../src/lib/server/domain/people/users';
import { E2E_ACCOUNTS, E2E_PASSWORD, SESSIONS_FILE } from './accounts';

const port = process.env.E2E_PORT ?? '4173';
let databaseUrl: string;
const serverUrl = process.env.E2E_DATABASE_URL;
if (serverUrl) {
	databaseUrl = (await createScratchDatabase(serverUrl, { name: 'cliniq_e2e' })).url;
} else {
	databaseUrl = `pglite:${mkdtempSync(join(tmpdir(), 'cliniq-e2e-'))}`;
}

const handle = await openDatabase(databaseUrl);
await migrateDatabase(handle);
await importDemoContent(handle.db);
const sessions: Record<string, string> = {};
for (const [key, account] of Object.entries(E2E_ACCOUNTS)) {
	const user = await createUser(handle.db, {
		...account,
		roles: [...account.roles],
		password: E2E_PASSWORD
	});
	sessions[key] = (await createSession(handle.db, user.id)).token;
}
await handle.close();
mkdirSync('test-results', { recursive: true });
writeFileSync(SESSIONS_FILE, JSON.stringify(sessions));

const child = spawn(process.execPath, [resolve('build')], {
	stdio: 'inherit',
	env: {
		...process.env,
		DATABASE_URL: databaseUrl,
		PORT: port,
		HOST: '127.0.0.1',
		ORIGIN: `http://127.0.0.1:${port}`,
		SEED_DEMO: '0',
		// The test server runs over plain http.
		COOKIE_SECURE: '0',
		BODY_SIZE_LIMIT: '64M'
	}
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
