import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSampleDir } from '$scoring/testing/sample-dir';
import { skippedTitle } from '$scoring/testing/skip';
import { QA_TYPES } from '../../../constants';
import type { DatabaseHandle } from '../../db/client';
import { createTestDb } from '../../db/testing';
import { countItemsByType } from '../items/items';
import { importQaFiles } from './qa-import';

// The public ClinIQLink sample may be read for format validation only; it is never copied here
// (docs/conformance.md).
const { dir: SAMPLE_DIR, reason } = findSampleDir();
const present = SAMPLE_DIR !== null;
if (!present) console.warn(`Skipping the ClinIQLink format-conformance test: ${reason}`);

describe.skipIf(!present)(
	skippedTitle('ClinIQLink sample files (format conformance)', present ? null : reason),
	() => {
		let h: DatabaseHandle;
		const files = present
			? readdirSync(SAMPLE_DIR)
					.filter((f) => f.endsWith('.json'))
					.map((f) => ({ fileName: f, text: readFileSync(join(SAMPLE_DIR, f), 'utf8') }))
			: [];
		beforeAll(async () => {
			h = await createTestDb('pglite');
		});
		afterAll(async () => {
			await h?.close();
		});

		it('imports every sample file of all seven types without a rejection', async () => {
			const total = files.reduce((n, f) => n + (JSON.parse(f.text) as unknown[]).length, 0);
			const result = await importQaFiles(h.db, files, { actor: { userId: null, label: 'test' } });
			expect(result.created).toBe(total);
			const byType = await countItemsByType(h.db);
			expect(byType.map((t) => t.type).sort()).toEqual([...QA_TYPES].sort());
		});

		it('recognises a second import of the same files as unchanged', async () => {
			const again = await importQaFiles(h.db, files, { actor: { userId: null, label: 'test' } });
			expect(again.created).toBe(0);
			expect(again.updated).toBe(0);
			expect(again.unchanged).toBe(again.total);
		});
	}
);
