// `npm test`: unit and database tests (vitest), the production build, and the end-to-end tests
// (Playwright, Chromium). Prints "N passed, N failed" as its last line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const VITEST_JSON = 'test-results/vitest.json';
const PW_JSON = 'test-results/playwright.json';
for (const f of [VITEST_JSON, PW_JSON]) rmSync(f, { force: true });

function run(label, cmd, args, env = {}) {
	console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
	const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
	return r.status ?? 1;
}

let passed = 0;
let failed = 0;
let problems = 0;

const unit = run('unit and database tests', 'npx', [
	'vitest',
	'run',
	'--reporter=default',
	'--reporter=json',
	`--outputFile=${VITEST_JSON}`
]);
if (existsSync(VITEST_JSON)) {
	const r = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
	passed += r.numPassedTests;
	failed += r.numFailedTests;
	if (r.numTotalTests === 0) problems++;
}
if (unit !== 0 && !existsSync(VITEST_JSON)) problems++;

const build = run('production build', 'npx', ['vite', 'build']);
if (build !== 0) {
	problems++;
} else {
	const e2e = run('end-to-end tests', 'npx', ['playwright', 'test'], { PW_JSON_OUTPUT: PW_JSON });
	if (existsSync(PW_JSON)) {
		const s = JSON.parse(readFileSync(PW_JSON, 'utf8')).stats;
		passed += s.expected + s.flaky;
		failed += s.unexpected;
		if (s.expected + s.unexpected + s.flaky === 0) problems++;
	} else if (e2e !== 0) problems++;
}

if (problems) console.log(`\n${problems} step(s) failed to run or ran no test.`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || problems ? 1 : 0);
