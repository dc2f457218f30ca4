import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, test } from '../fixtures';
import type { E2eAccount } from '../support/accounts';
import { readTemplate } from '../support/template';

// A NUL character (U+0000) cannot be stored by PostgreSQL: sent in a form field or a query
// parameter it must be refused with 400 and a message naming the field, never reach a statement
// (HTTP 500). The places below each failed that way; they all pass through one check now.

const NUL = '\u0000';

function headers(portalUrl: string, account: E2eAccount | null) {
	return {
		// SvelteKit refuses form posts from another origin; a browser sends its own.
		origin: portalUrl,
		// The refusal as data (a browser asking for HTML gets the same message on an error page).
		accept: 'application/json',
		...(account ? { cookie: `session=${readTemplate().sessions[account]}` } : {})
	};
}

async function expectRefused(response: APIResponse, field: string) {
	expect(response.status(), await response.text()).toBe(400);
	const { message } = await response.json();
	expect(message).toContain(`"${field}" contains a NUL character (U+0000), which cannot be stored`);
}

/** The lease of the reviewer's next task: its id and key, read from the page a browser gets. */
async function leasedTask(request: APIRequestContext, portalUrl: string) {
	const page = { ...headers(portalUrl, 'reviewer'), accept: 'text/html' };
	const start = await request.post('/review?/start', {
		headers: page,
		form: {},
		maxRedirects: 0
	});
	expect(start.status()).toBe(303);
	const path = start.headers()['location'];
	const html = await (await request.get(path, { headers: page })).text();
	const taskId = /name="taskId" value="([a-z2-9]{24})"/.exec(html)?.[1];
	const key = /name="key" value="([^"]+)"/.exec(html)?.[1];
	expect(taskId && key, 'the task page carries its lease').toBeTruthy();
	return { path, taskId: taskId!, key: key! };
}

test('a NUL in any of the places that once failed gets 400 and a message, never a 500', async ({
	request,
	portal
}) => {
	const url = portal.url;

	await test.step('the sign-in email (signed out)', async () => {
		const r = await request.post('/login', {
			headers: headers(url, null),
			form: { email: `eve${NUL}@example.org`, password: 'whatever-it-is' }
		});
		await expectRefused(r, 'email');
	});

	const task = await leasedTask(request, url);
	await test.step('the review feedback note', async () => {
		const r = await request.post(`${task.path}?/submit`, {
			headers: headers(url, 'reviewer'),
			form: {
				taskId: task.taskId,
				verdict: 'correct',
				relevance: '5',
				feedbackCategory: 'wording',
				feedback: `Cite the passage${NUL}.`
			}
		});
		await expectRefused(r, 'feedback');
	});

	await test.step('the reason for skipping a review task', async () => {
		const r = await request.post(`${task.path}?/skip`, {
			headers: headers(url, 'reviewer'),
			form: { taskId: task.taskId, key: task.key, reason: `Not my field${NUL}` }
		});
		await expectRefused(r, 'reason');
	});

	await test.step('a ranking comment', async () => {
		const r = await request.post('/rank/q/abcdefghijkmnpqrstuvwxyz?/submit', {
			headers: headers(url, 'physician'),
			form: { 'rank.1': '1', 'comment.1': `Clear${NUL}` }
		});
		await expectRefused(r, 'comment.1');
	});

	await test.step('a study name', async () => {
		const r = await request.post('/admin/studies?/create', {
			headers: headers(url, 'organiser'),
			form: { name: `Study${NUL}`, instructions: 'Rank them.', k: '2' }
		});
		await expectRefused(r, 'name');
	});

	await test.step('the audit log and items filters (query parameters)', async () => {
		for (const path of ['/admin/audit?actor=%00', '/admin/items?q=a%00b']) {
			const r = await request.get(path, { headers: headers(url, 'organiser') });
			expect(r.status(), path).toBe(400);
			expect((await r.json()).message).toMatch(
				/^The query parameter "(actor|q)" contains a NUL character \(U\+0000\)/
			);
		}
	});

	await test.step('a broken percent-escape, and a form sent by a page with JavaScript', async () => {
		const r = await request.get('/admin/items?q=%ED%A0%80', {
			headers: headers(url, 'organiser')
		});
		expect(r.status()).toBe(400);
		expect((await r.json()).message).toContain('"q" holds a broken percent-escape');
		// use:enhance expects an action result: an error, which the page shows.
		const enhanced = await request.post('/login', {
			headers: { ...headers(url, null), 'x-sveltekit-action': 'true' },
			form: { email: `eve${NUL}@example.org`, password: 'x' }
		});
		expect(enhanced.status()).toBe(400);
		expect(await enhanced.json()).toEqual({
			type: 'error',
			error: {
				message:
					'The form field "email" contains a NUL character (U+0000), which cannot be stored; remove it and send the form again.'
			}
		});
	});

	await test.step('the portal still answers, and the reviewer still holds the task', async () => {
		expect((await request.get('/healthz')).ok()).toBe(true);
		const page = await request.get(task.path, { headers: headers(url, 'reviewer') });
		expect(page.status()).toBe(200);
	});
});
