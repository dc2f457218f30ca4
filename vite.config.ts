import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	server: { fs: { allow: ['scoring'] } },
	test: {
		include: ['src/**/*.test.ts', 'scoring/**/*.test.ts', 'tests/unit/**/*.test.ts'],
		environment: 'node',
		// PGlite start-up and argon2 hashing are slow under load; the default 5 s flakes (STACK.md).
		testTimeout: 60_000,
		hookTimeout: 120_000,
		globalSetup: ['tests/global-setup.ts'],
		pool: 'forks'
	}
});
