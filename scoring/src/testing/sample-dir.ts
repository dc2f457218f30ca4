import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** Environment variable naming the folder that holds the ClinIQLink sample QA files. */
export const SAMPLE_DIR_VAR = 'CLINIQLINK_SAMPLE_DIR';

/** Repository root, three levels above scoring/src/testing. */
const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** Where the sample is looked for when the variable is unset: `../shared` beside the checkout. */
export const DEFAULT_SAMPLE_DIR = resolve(REPO_ROOT, '../shared/cliniqlink-sample');

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/**
 * Locates the public ClinIQLink sample for the format-conformance suites (docs/conformance.md). Its
 * licence allows format validation only, so it is never copied into the repository. A set but
 * wrong CLINIQLINK_SAMPLE_DIR throws rather than letting the suites skip silently.
 */
export function findSampleDir(fallback: string = DEFAULT_SAMPLE_DIR): {
	dir: string | null;
	reason: string;
} {
	const configured = process.env[SAMPLE_DIR_VAR];
	if (configured) {
		const dir = resolve(configured);
		if (!isDir(dir)) {
			throw new Error(`${SAMPLE_DIR_VAR} is set to ${configured}, but ${dir} is not a folder`);
		}
		return { dir, reason: `${SAMPLE_DIR_VAR}=${configured}` };
	}
	if (isDir(fallback)) return { dir: fallback, reason: `found beside the checkout at ${fallback}` };
	return {
		dir: null,
		reason:
			`ClinIQLink sample not found: set ${SAMPLE_DIR_VAR} to a folder with the per-type JSON ` +
			`files, or place it at ${fallback} (see docs/conformance.md)`
	};
}
