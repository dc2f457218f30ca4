import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLE_DIR, findSampleDir, SAMPLE_DIR_VAR } from './sample-dir';

describe('findSampleDir', () => {
	const saved = process.env[SAMPLE_DIR_VAR];
	let tmp: string;
	let configured: string;
	let beside: string;

	beforeEach(() => {
		tmp = mkdtempSync(join(tmpdir(), 'cliniq-sample-'));
		configured = join(tmp, 'configured');
		beside = join(tmp, 'beside');
		mkdirSync(configured);
		mkdirSync(beside);
	});
	afterEach(() => {
		if (saved === undefined) delete process.env[SAMPLE_DIR_VAR];
		else process.env[SAMPLE_DIR_VAR] = saved;
		rmSync(tmp, { recursive: true, force: true });
	});

	it('prefers the environment variable over the folder beside the checkout', () => {
		process.env[SAMPLE_DIR_VAR] = configured;
		expect(findSampleDir(beside).dir).toBe(configured);
	});

	it('throws when the variable names a folder that does not exist', () => {
		process.env[SAMPLE_DIR_VAR] = join(tmp, 'missing');
		expect(() => findSampleDir(beside)).toThrow(/CLINIQLINK_SAMPLE_DIR .*missing/);
	});

	it('throws when the variable names a file', () => {
		const file = join(tmp, 'TF.json');
		writeFileSync(file, '[]');
		process.env[SAMPLE_DIR_VAR] = file;
		expect(() => findSampleDir(beside)).toThrow(/not a folder/);
	});

	it('falls back to the folder beside the checkout when the variable is unset or empty', () => {
		delete process.env[SAMPLE_DIR_VAR];
		expect(findSampleDir(beside).dir).toBe(beside);
		process.env[SAMPLE_DIR_VAR] = '';
		expect(findSampleDir(beside).dir).toBe(beside);
	});

	it('returns null with a reason naming the variable and the docs when nothing is found', () => {
		delete process.env[SAMPLE_DIR_VAR];
		const found = findSampleDir(join(tmp, 'absent'));
		expect(found.dir).toBeNull();
		expect(found.reason).toContain(SAMPLE_DIR_VAR);
		expect(found.reason).toContain('docs/conformance.md');
	});

	it('looks for shared/cliniqlink-sample beside the repository root by default', () => {
		const repoRoot = resolve(import.meta.dirname, '../../..');
		expect(existsSync(join(repoRoot, 'scoring', 'README.md'))).toBe(true);
		expect(DEFAULT_SAMPLE_DIR).toBe(join(dirname(repoRoot), 'shared', 'cliniqlink-sample'));
	});
});
