import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	server: { fs: { allow: ['scoring'] } },
	test: {
		environment: 'node',
		// PGlite start-up and argon2 hashing are slow under load; the default 5 s flakes (STACK.md).
		testTimeout: 60_000,
		hookTimeout: 120_000,
		pool: 'forks',
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
