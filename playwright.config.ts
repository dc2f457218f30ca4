import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 4173);
// No browser can be downloaded here: use the system Chromium (Debian's package) unless told otherwise.
const executablePath =
	process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
	testDir: 'tests/e2e',
	// The app under test is one server process on one database; keep runs deterministic.
	workers: 1,
	fullyParallel: false,
	retries: 0,
	timeout: 30_000,
	expect: { timeout: 10_000 },
	reporter: process.env.PW_JSON_OUTPUT
		? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
		: 'list',
	use: {
		baseURL: `http://127.0.0.1:${PORT}`,
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
	},
	webServer: {
		command: 'npx tsx tests/e2e/server.ts',
		url: `http://127.0.0.1:${PORT}/healthz`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'pipe',
		env: { E2E_PORT: String(PORT) }
	}
});
