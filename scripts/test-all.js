// `npm test`: unit and database tests (vitest), the production build, and the end-to-end tests
// (Playwright, Chromium). Its last line is "N passed, N failed, N skipped", where every test that
// was collected is counted once: a test that never ran (a crashed file, an interrupted run) counts
// as failed, never vanishes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

mkdirSync('test-results', { recursive: true });
const VITEST_JSON = 'test-results/vitest.json';
const PW_JSON = 'test-results/playwright.json';
const PW_LIST_JSON = 'test-results/playwright-list.json';
for (const f of [VITEST_JSON, PW_JSON, PW_LIST_JSON]) rmSync(f, { force: true });

function run(label, cmd, args, env = {}) {
	console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
	const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
	return r.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** Every skipped test, with why: printed together at the end of the run. */
const skipped = [];
/** A skipped suite's title ends in `[skipped: <reason>]` (scoring/src/testing/skip.ts). */
const reasonIn = (name) => /\[skipped: ([^\]]+)\]/.exec(name)?.[1] ?? null;

const t0 = Date.now();

// --- vitest -----------------------------------------------------------------------------------
const unit = run('unit and database tests', 'npx', [
	'vitest',
	'run',
	'--reporter=default',
	'--reporter=json',
	`--outputFile=${VITEST_JSON}`
]);
if (existsSync(VITEST_JSON)) {
	const r = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
	let counted = 0;
	for (const file of r.testResults) {
		for (const t of file.assertionResults) {
			counted++;
			if (t.status === 'passed') totals.passed++;
			else if (t.status === 'failed') totals.failed++;
			else {
				totals.skipped++; // skipped, pending, todo
				const name = [...t.ancestorTitles, t.title].join(' › ');
				skipped.push({
					where: `${relative(process.cwd(), file.name)} › ${name.replace(/ \[skipped: [^\]]+\]/g, '')}`,
					reason: reasonIn(t.fullName) ?? 'no reason given'
				});
			}
		}
		// A file that failed before its tests ran (syntax error, failing hook) has no results of its
		// own: count it as one failed test so it cannot disappear.
		if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
			totals.failed++;
			console.log(`vitest: ${file.name} failed outside its tests: ${file.message ?? ''}`);
		}
	}
	if (counted === 0) problems.push('vitest collected no test');
} else if (unit !== 0) problems.push(`vitest exited with ${unit} and wrote no report`);
else problems.push('vitest wrote no report');

// --- Playwright ------------------------------------------------------------------------------
// Not alongside vitest: both run SvelteKit's sync into .svelte-kit/, and a build that raced it
// was seen to serve relative links and pages that never hydrate.
const build = run('production build', 'npx', ['vite', 'build']);
if (build !== 0) {
	problems.push('the production build failed, so no end-to-end test ran');
	// The e2e tests that exist still count: list them and count each as failed.
	const listed = listPlaywright();
	totals.failed += listed;
} else {
	const listed = listPlaywright();
	const e2e = run('end-to-end tests', 'npx', ['playwright', 'test'], { PW_JSON_OUTPUT: PW_JSON });
	if (existsSync(PW_JSON)) {
		const s = JSON.parse(readFileSync(PW_JSON, 'utf8')).stats;
		totals.passed += s.expected + s.flaky;
		totals.failed += s.unexpected;
		totals.skipped += s.skipped;
		const seen = s.expected + s.flaky + s.unexpected + s.skipped;
		if (seen < listed) {
			console.log(`playwright: ${listed - seen} of ${listed} listed tests never ran`);
			totals.failed += listed - seen;
		}
		if (listed === 0) problems.push('playwright listed no test');
		collectPlaywrightSkips(JSON.parse(readFileSync(PW_JSON, 'utf8')));
	} else {
		problems.push(`playwright exited with ${e2e} and wrote no report`);
		totals.failed += listed;
	}
}

/** How many tests Playwright would run (0 when it cannot even list them). */
function listPlaywright() {
	const r = spawnSync('npx', ['playwright', 'test', '--list', '--reporter=json'], {
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024
	});
	try {
		const report = JSON.parse(r.stdout);
		let n = 0;
		const walk = (suite) => {
			for (const spec of suite.specs ?? []) n += spec.tests.length;
			for (const child of suite.suites ?? []) walk(child);
		};
		for (const suite of report.suites) walk(suite);
		return n;
	} catch {
		problems.push('playwright could not list its tests');
		return 0;
	}
}

/** Playwright's skipped tests, with the description of their `test.skip(condition, why)`. */
function collectPlaywrightSkips(report) {
	const walk = (suite, titles) => {
		for (const spec of suite.specs ?? [])
			for (const t of spec.tests ?? [])
				if (t.status === 'skipped')
					skipped.push({
						where: `tests/e2e/${spec.file} › ${[...titles, spec.title].join(' › ')}`,
						reason:
							t.annotations?.find((a) => a.type === 'skip' || a.type === 'fixme')?.description ??
							'no reason given'
					});
		for (const child of suite.suites ?? [])
			walk(child, child.title && child.title !== child.file ? [...titles, child.title] : titles);
	};
	for (const suite of report.suites ?? []) walk(suite, []);
}

console.log(`\nwall time: ${((Date.now() - t0) / 60_000).toFixed(1)} min`);
if (skipped.length) {
	console.log(`\n${skipped.length} skipped:`);
	for (const s of skipped) console.log(`skipped: ${s.where} — ${s.reason}`);
}
for (const p of problems) console.log(`problem: ${p}`);
if (problems.length && totals.failed === 0) totals.failed = problems.length;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed || problems.length ? 1 : 0);
