import { defineConfig } from 'vitest/config';

// Standalone config so the scoring package can be tested without the portal's global setup (database).
export default defineConfig({
	test: {
		root: new URL('.', import.meta.url).pathname,
		include: ['src/**/*.test.ts'],
		environment: 'node',
		testTimeout: 60_000
	}
});
