import { availableParallelism } from 'node:os';
import { sveltekit } from '@sveltejs/kit/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The dev server opens, migrates and (on a new database) seeds the portal's database as soon as
 * it listens, while Vite is still preparing the first page, instead of on the first request
 * (SvelteKit's `init` hook then finds the work done or under way: it is the same promise).
 */
function startAppWithServer(): Plugin {
	return {
		name: 'cliniq-start-app-with-server',
		apply: 'serve',
		configureServer(server) {
			// Vitest runs this config too (mode 'test'): its tests open databases of their own.
			if (server.config.mode === 'test') return;
			server.httpServer?.once('listening', () => {
				server
					.ssrLoadModule('/src/lib/server/startup.ts')
					.then((startup) => startup.startApp())
					.catch((e) => server.config.logger.error(`start-up failed: ${e?.stack ?? e}`));
			});
		}
	};
}

export default defineConfig({
	plugins: [sveltekit(), startAppWithServer()],
	server: { fs: { allow: ['scoring'] } },
	test: {
		environment: 'node',
		// PGlite start-up and argon2 hashing are slow under load; the default 5 s flakes (STACK.md).
		testTimeout: 60_000,
		hookTimeout: 120_000,
		pool: 'forks',
		// One fork per core (vitest's default leaves one core to itself): the database tests are
		// CPU-bound in PGlite, and on a 2-core machine a second fork cuts the run by a quarter.
		maxWorkers: availableParallelism(),
		// A test that asserts nothing is a defect: every test must make at least one assertion.
		expect: { requireAssertions: true },
		projects: [
			{
				// The scorer: pure TypeScript, no database.
				extends: true,
				test: { name: 'scoring', include: ['scoring/**/*.test.ts'] }
			},
			{
				// Domain, data layer, auth, CLI and the repository checks: one migrated template
				// database per run (tests/global-setup.ts), copied for each test.
				extends: true,
				test: {
					name: 'server',
					include: [
						'src/lib/server/**/*.test.ts',
						'src/cli/**/*.test.ts',
						'tests/unit/**/*.test.ts'
					],
					globalSetup: ['tests/global-setup.ts']
				}
			},
			{
				// Code the browser runs too: formatting, ranking rules, shared schemas.
				extends: true,
				test: {
					name: 'client',
					include: ['src/**/*.test.ts'],
					exclude: ['src/lib/server/**', 'src/cli/**']
				}
			}
		]
	}
});
