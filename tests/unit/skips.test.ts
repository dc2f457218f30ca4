// A test that skips says why: `npm test` ends by printing every skipped test with its reason, read
// from the suite's title (`skippedTitle`, scoring/src/testing/skip.ts) or from Playwright's
// `test.skip(condition, why)`. A skip without a reason fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../..'));

function testFiles(dir: string, out: string[] = []): string[] {
	for (const name of readdirSync(join(ROOT, dir))) {
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) testFiles(path, out);
		else if (name.endsWith('.test.ts')) out.push(path);
	}
	return out;
}

/** The skips of a test file that give no reason, as `file:line`. */
export function unexplainedSkips(file: string, text: string): string[] {
	const out: string[] = [];
	const lineOf = (i: number) => text.slice(0, i).split('\n').length;
	// vitest: `describe.skipIf(cond)(skippedTitle(title, reason), …)`; a plain `.skip(` never.
	for (const m of text.matchAll(/\b(?:describe|it|test)\.skipIf\([^\n]*?\)\(\s*(\S{0,14})/g))
		if (!m[1].startsWith('skippedTitle(')) out.push(`${file}:${lineOf(m.index)}`);
	for (const m of text.matchAll(/\b(?:describe|it)\.(?:skip|todo)\(/g))
		out.push(`${file}:${lineOf(m.index)}`);
	// Playwright: `test.skip(condition, 'why')` — a reason string after the condition.
	for (const m of text.matchAll(/\btest\.skip\(([^)]*)\)/g))
		if (!/,\s*['"`]/.test(m[1])) out.push(`${file}:${lineOf(m.index)}`);
	return out;
}

describe('skipped tests', () => {
	it('finds a skip without a reason (the check below can fail)', () => {
		expect(unexplainedSkips('a.test.ts', "describe.skipIf(!x)('a suite', () => {})")).toEqual([
			'a.test.ts:1'
		]);
		expect(unexplainedSkips('a.test.ts', "\nit.skip('later', () => {})")).toEqual(['a.test.ts:2']);
		expect(unexplainedSkips('a.test.ts', 'test.skip(!serverConfigured)')).toEqual(['a.test.ts:1']);
		expect(
			unexplainedSkips('a.test.ts', "describe.skipIf(!x)(skippedTitle('a', why), () => {})")
		).toEqual([]);
		expect(unexplainedSkips('a.test.ts', "test.skip(!serverConfigured, 'needs a server')")).toEqual(
			[]
		);
	});

	it('every skip in the suite gives its reason', () => {
		const files = [...testFiles('src'), ...testFiles('scoring/src'), ...testFiles('tests')]
			// This file's own examples above are skips without a reason, on purpose.
			.filter((f) => relative(ROOT, join(ROOT, f)) !== 'tests/unit/skips.test.ts');
		const found = files.flatMap((f) =>
			unexplainedSkips(relative(ROOT, join(ROOT, f)), readFileSync(join(ROOT, f), 'utf8'))
		);
		expect(found).toEqual([]);
	});
});
