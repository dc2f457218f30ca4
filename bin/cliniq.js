#!/usr/bin/env node
// Entry of the `cliniq` organiser CLI: runs the TypeScript sources through tsx so the CLI and
// the portal share one copy of the domain code.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.MIGRATIONS_DIR ??= resolve(root, 'drizzle');
process.env.DB_FUNCTIONS_DIR ??= resolve(root, 'src/lib/server/db/functions');
// Resolve the project's path aliases ($lib, $scoring) wherever the command is run from.
register({ tsconfig: resolve(root, 'tsconfig.json') });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
