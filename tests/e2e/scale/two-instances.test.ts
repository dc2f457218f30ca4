// Two portal instances on one PostgreSQL database, as a deployment behind a load balancer runs
// them: reviews submitted through both never collide, and a scoring run survives the death of the
// instance that was running it. (PGlite is one process by design: this needs a server.)
import { expect, test, type Browser, type Page } from '@playwright/test';
import postgres from 'postgres';
import { createScratchDatabase, type ScratchDatabase } from '../../../src/lib/server/db/scratch';
import type { E2eAccount } from '../support/accounts';
import { startServer, type PortalServer } from '../support/portal';
import { readTemplate, type E2eTemplate } from '../support/template';

// The global setup builds the template on E2E_DATABASE_URL's server when it is set (read in the
// hooks, not at load: listing the tests runs no global setup).
test.skip(
	!process.env.E2E_DATABASE_URL,
	'Several portal instances share a PostgreSQL server: set E2E_DATABASE_URL to run this spec.'
);
test.describe.configure({ mode: 'serial' });

/** Short enough for a test to see a dead worker's run taken over within seconds. */
const INSTANCE_ENV = { SCORING_LEASE_SECONDS: '2' };
/**
 * E2E_POOLER_URL: a PgBouncer in transaction mode in front of the same server (e.g.
 * postgres://postgres@127.0.0.1:6432); the instances then connect through it, as compose.yaml
 * runs them, with named prepared statements off.
 */
const POOLER_URL = process.env.E2E_POOLER_URL;

let template: E2eTemplate;
let database: ScratchDatabase;
let sql: postgres.Sql;
const servers: PortalServer[] = [];

test.beforeAll(async () => {
	template = readTemplate();
	expect(template.kind).toBe('postgres');
	database = await createScratchDatabase(template.location, {
		prefix: 'cliniq_e2e',
		template: template.name
	});
	sql = postgres(database.url, { max: 2, onnotice: () => {} });
});

test.afterAll(async () => {
	for (const server of servers) await server.stop();
	await sql?.end();
	await database?.drop();
});

async function start(): Promise<PortalServer> {
	let url = database.url;
	let env: Record<string, string> = INSTANCE_ENV;
	if (POOLER_URL) {
		const through = new URL(POOLER_URL);
		through.pathname = `/${database.name}`;
		url = through.toString();
		env = { ...env, DATABASE_PREPARE: '0' };
	}
	const server = await startServer(url, env);
	servers.push(server);
	return server;
}

/** A page signed in as `account` (the session cookie holds for every port of 127.0.0.1). */
async function signedIn(browser: Browser, account: E2eAccount, base: string): Promise<Page> {
	const context = await browser.newContext();
	await context.addCookies([
		{
			name: 'session',
			value: template.sessions[account],
			url: base,
			httpOnly: true,
			sameSite: 'Lax'
		}
	]);
	return context.newPage();
}

/** Reviews up to `limit` items through `base` with the keyboard; returns how many it submitted. */
async function review(page: Page, base: string, limit: number): Promise<number> {
	await page.goto(`${base}/review`);
	const resume = page.getByRole('link', { name: 'Continue your current item' });
	const begin = page.getByRole('button', { name: 'Start reviewing' });
	await expect(resume.or(begin)).toBeVisible();
	if (await resume.isVisible()) await resume.click();
	else await begin.click();
	let submitted = 0;
	while (submitted < limit) {
		await page.waitForURL(/\/review(\/task\/[a-z2-9]{24}|\?done=1)/);
		if (!/\/review\/task\/[a-z2-9]{24}/.test(page.url())) break;
		await expect(page.getByText('Enter').first()).toBeVisible();
		const url = page.url();
		await page.keyboard.press('c');
		await page.keyboard.press('5');
		await expect(page.getByLabel(/Correct/)).toBeChecked();
		await page.keyboard.press('Enter');
		await page.waitForURL((u) => u.href !== url);
		submitted++;
	}
	return submitted;
}

test('reviews submitted through two instances at once are all recorded, none twice', async ({
	browser
}) => {
	test.setTimeout(180_000);
	const [a, b] = await Promise.all([start(), start()]);
	const pages = await Promise.all([
		signedIn(browser, 'reviewer', a.url),
		signedIn(browser, 'reviewer2', b.url),
		signedIn(browser, 'reviewer3', a.url)
	]);
	// Reviewer 3 works through both instances alternately, as a load balancer may send them.
	const counts = await Promise.all([
		review(pages[0], a.url, 5),
		review(pages[1], b.url, 5),
		(async () => (await review(pages[2], a.url, 2)) + (await review(pages[2], b.url, 2)))()
	]);
	expect(counts).toEqual([5, 5, 4]);

	const byReviewer = await sql<{ email: string; n: number }[]>`
		select u.email, count(*)::int as n from review r join "user" u on u.id = r.reviewer_id
		group by u.email order by u.email`;
	expect(byReviewer).toEqual([
		{ email: 'e2e-reviewer2@test.local', n: 5 },
		{ email: 'e2e-reviewer3@test.local', n: 4 },
		{ email: 'e2e-reviewer@test.local', n: 5 }
	]);
	// No task was judged twice, and no reviewer judged an item twice.
	const [twice] = await sql<{ tasks: number; pairs: number }[]>`
		select (select count(*)::int from (select task_id from review group by task_id
				having count(*) > 1) t) as tasks,
			(select count(*)::int from (select item_id, reviewer_id from review
				group by item_id, reviewer_id having count(*) > 1) p) as pairs`;
	expect(twice).toEqual({ tasks: 0, pairs: 0 });
	// Every judged task left the queue; none is still leased or pending.
	const open = await sql`
		select t.id from review_task t join review r on r.task_id = t.id
		where t.state in ('pending', 'leased')`;
	expect(open).toHaveLength(0);
});

test('a scoring run started on an instance that is killed is completed by another, once', async ({
	browser
}) => {
	test.setTimeout(180_000);
	for (const server of servers.splice(0)) await server.stop();
	const a = await start();

	// Hold the score table so that instance A's worker stops at its last step, storing the
	// results, with the run taken (the worst moment for it to die).
	let release!: () => void;
	const released = new Promise<void>((r) => (release = r));
	let locked!: () => void;
	const isLocked = new Promise<void>((r) => (locked = r));
	const holding = sql.begin(async (tx) => {
		await tx`lock table score in exclusive mode`;
		locked();
		await released;
	});
	await isLocked;

	const organiser = await signedIn(browser, 'organiser', a.url);
	await organiser.goto(`${a.url}/admin/scoring`);
	await organiser.getByLabel('Mode').selectOption('official');
	await organiser.getByLabel('Embedder').fill('hash:384');
	await organiser.getByRole('button', { name: 'Start scoring' }).click();
	await expect(organiser).toHaveURL(/\/admin\/scoring\/\d+$/);
	const runId = Number(organiser.url().split('/').pop());

	await expect
		.poll(
			async () =>
				(
					await sql`select 1 from pg_stat_activity
						where datname = current_database() and wait_event_type = 'Lock'
							and application_name = 'cliniq-portal'`
				).length,
			{ timeout: 60_000 }
		)
		.toBeGreaterThan(0);
	const [taken] = await sql`select state, attempt from scoring_run where id = ${runId}`;
	expect(taken).toEqual({ state: 'running', attempt: 1 });

	// A second instance comes up; then A dies without a chance to clean up.
	const b = await start();
	process.kill(a.pid, 'SIGKILL');
	release();
	await holding;

	await expect
		.poll(async () => (await sql`select state from scoring_run where id = ${runId}`)[0].state, {
			timeout: 90_000,
			intervals: [500]
		})
		.toBe('done');
	const [run] = await sql<{ attempt: number; total: number; scores: number; responses: number }[]>`
		select r.attempt, r.progress_total as total,
			(select count(*)::int from score s where s.run_id = r.id) as scores,
			(select count(distinct response_id)::int from score s where s.run_id = r.id) as responses
		from scoring_run r where r.id = ${runId}`;
	expect(run).toEqual({ attempt: 2, total: 63, scores: 63, responses: 63 });

	const page = await signedIn(browser, 'organiser', b.url);
	await page.goto(`${b.url}/admin/scoring/${runId}`);
	await expect(page.locator('.badge', { hasText: 'done' })).toBeVisible();
	await expect(page.getByText('63 responses')).toBeVisible();
});
