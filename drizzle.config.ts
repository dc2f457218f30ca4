import { defineConfig } from 'drizzle-kit';

// Generating migrations needs no database; `drizzle-kit check` catches drift.
export default defineConfig({
	schema: './src/lib/server/db/schema/index.ts',
	out: './drizzle',
	dialect: 'postgresql',
	casing: 'snake_case'
});
