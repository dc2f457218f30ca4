import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// No browser can be downloaded here: use the system Chromium (Debian's package) unless told otherwise.
const executablePath =
	process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
	testDir: 'tests/e2e',
	// Each spec file gets its own portal on its own copy of the template database
	// (tests/e2e/fixtures.ts); the tests of one file run in order, in one worker.
	globalSetup: './tests/e2e/support/global-setup.ts',
	// Spec files in parallel, each on its portal: three at once on embedded PGlite (a spec spends
	// much of its time waiting on pages, so a 2-core machine has room: 5.2 min instead of 5.8 with
	// two), two on PostgreSQL, whose server takes its own share of the cores.
	workers: Number(process.env.E2E_WORKERS ?? (process.env.E2E_DATABASE_URL ? 2 : 3)),
	fullyParallel: false,
	retries: 0,
	// Twice Playwright's default: a short test on a loaded 2-core machine can take 30 s.
	timeout: 60_000,
	// Twice the default too: a form post answered on a loaded machine has taken more than 10 s.
	expect: { timeout: 20_000 },
	reporter: process.env.PW_JSON_OUTPUT
		? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
		: 'list',
	use: {
		trace: 'retain-on-failure',
		launchOptions: {
			executablePath,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync'
			]
		}
	}
});
