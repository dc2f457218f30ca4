import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Db } from '../../../src/lib/server/db/client';
import { expect, test } from '../fixtures';
import type { E2eAccount } from '../support/accounts';
import { readTemplate } from '../support/template';

// Thousands of generated bad uploads and form posts against the running portal, reproducible
// from one seed: none may get a 5xx, the server's memory may not run away, and no content table
// may gain or lose a row (every input here is refused whole).

const SEED = 20260521;
/** Requests per kind of input. */
const PER_KIND = {
	qa: 500,
	passages: 250,
	responses: 250,
	multipart: 200,
	forms: 550,
	queries: 250
};
/** Requests in flight at once. */
const CONCURRENCY = 4;
/** Most the server's resident memory may grow over the run, in MB. */
const RSS_GROWTH_MB = 300;

/** Tables whose rows are content: a refused input must leave each count as it was. */
const CONTENT_TABLES = [
	'dataset',
	'import',
	'passage',
	'model',
	'qa_item',
	'qa_item_version',
	'response',
	'review',
	'task_skip',
	'feedback_note',
	'dispute',
	'study',
	'study_model',
	'study_question',
	'assignment',
	'ranking',
	'ranking_entry',
	'user'
];

async function countRows(db: Db): Promise<Record<string, number>> {
	const out: Record<string, number> = {};
	for (const table of CONTENT_TABLES) {
		const [row] = rowsOf<{ n: number }>(
			await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)
		);
		out[table] = Number(row.n);
	}
	return out;
}

// The portal's start-up counts too: it prepares its database first.
test.describe.configure({ timeout: 420_000 });

let before: Record<string, number> = {};
test.use({ prepareDatabase: { prepare: async (db) => void (before = await countRows(db)) } });

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n: number) => Math.floor(next() * n);
	const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
	return { next, int, pick };
}
type Rng = ReturnType<typeof random>;

const enc = (s: string) => Buffer.from(s, 'utf8');
const record = (n: number) => ({
	question: `Metformin is first-line for type 2 diabetes (fuzz ${n}).`,
	answer: 'True',
	source: { isbn: '978-0-00-000000-0', page: 10, paragraph_id: `fuzz-p${n}` },
	type: 'true_false'
});

/**
 * A JSON text that is refused for at least one reason, whatever else it holds. Each defect is one
 * thing a careless or hostile file does.
 */
const DEFECTS: Record<string, (r: Rng) => Buffer> = {
	deepNesting: (r) => {
		const d = 65 + r.int(100_000);
		return enc(`[${JSON.stringify(record(1))},${'['.repeat(d)}${']'.repeat(d)}]`);
	},
	deepInField: (r) => {
		const d = 65 + r.int(50_000);
		return enc(
			JSON.stringify([{ ...record(1), question: 'x' }]).replace(
				'"x"',
				'['.repeat(d) + ']'.repeat(d)
			)
		);
	},
	hugeString: (r) =>
		enc(JSON.stringify([{ ...record(1), question: 'q'.repeat(1_000_001 + r.int(1_000_000)) }])),
	nul: () => enc(JSON.stringify([{ ...record(1), question: 'a\u0000b' }])),
	loneSurrogate: () => enc(JSON.stringify([record(1)]).replace('Metformin', 'Met\\ud800formin')),
	invalidUtf8: (r) => {
		const b = enc(JSON.stringify([record(1)]));
		b[20 + r.int(20)] = r.pick([0xff, 0xc3, 0xe2, 0x80, 0xf5]);
		return b;
	},
	wrongTypes: (r) =>
		enc(JSON.stringify([{ ...record(1), answer: r.pick([1, null, [], {}, true]), type: 7 }])),
	truncated: (r) => {
		const t = JSON.stringify([record(1), record(2)]);
		return enc(t.slice(0, 1 + r.int(t.length - 2)));
	},
	bomThenBroken: () => enc(`\uFEFF[${JSON.stringify(record(1))},]`),
	hugeNumbers: (r) =>
		enc(
			JSON.stringify([{ ...record(1), source: { ...record(1).source, page: 1 } }]).replace(
				'"page":1',
				`"page":${r.pick(['1e999', '123456789012345678901234567890', '-0.5', '9'.repeat(5000)])}`
			)
		),
	duplicatedKeys: () => enc(JSON.stringify([record(1)]).replace('{', '{"question":"first",')),
	csvAsJson: () => enc('question,answer,type\n"Is it?",True,true_false\n'),
	overlongFields: (r) =>
		enc(JSON.stringify([{ ...record(1), question: 'w'.repeat(20_001 + r.int(100_000)) }])),
	notJson: (r) => Buffer.from(Array.from({ length: 1 + r.int(2000) }, () => r.int(256))),
	empty: () => Buffer.alloc(0),
	emptyArray: () => enc('[]')
};

const QA_NAMES = ['fuzz.json', 'fuzz.jsonl', 'true_false.json', 'x.ndjson', 'noext'];
const PASSAGE_NAMES = ['p.json', 'p.csv', 'p.txt'];
const RESPONSE_NAMES = ['true_false.json', 'out.jsonl', 'list.json', 'r.json'];

/** Passages refused whole: a bad CSV or JSON of passages. */
function passageFile(r: Rng): Buffer {
	if (r.next() < 0.5) return DEFECTS[r.pick(Object.keys(DEFECTS))](r);
	return r.pick([
		() => enc('paragraph_id,text\np1,"unclosed\n'),
		() => enc('paragraph_id,paragraph_id,text\np1,p2,t\n'),
		() => enc('text\nno id column\n'),
		() => enc(`paragraph_id,text\np1,${'t'.repeat(200_001)}\n`),
		() => enc('paragraph_id,text\np\u0000,t\n'),
		() => Buffer.concat([enc('paragraph_id,text\np1,caf'), Buffer.from([0xe9]), enc('\n')]),
		() => enc(JSON.stringify({ p1: { text: ['not text'] } }))
	])();
}

/**
 * Defects that make any file unreadable. An output may be any JSON object, so a QA record with a
 * wrong type or a long field is still an output: those are left out for model outputs.
 */
const UNREADABLE = Object.keys(DEFECTS).filter(
	(k) => !['wrongTypes', 'hugeNumbers', 'overlongFields'].includes(k)
);

/** Model outputs refused whole. */
function responseFile(r: Rng): Buffer {
	if (r.next() < 0.5) return DEFECTS[r.pick(UNREADABLE)](r);
	return r.pick([
		() => enc(JSON.stringify({ responses: [['x']] })),
		() => enc(JSON.stringify({ inputs: [record(1)], responses: [] })),
		() => enc(`{"item": 1, "response": ${'['.repeat(70)}${']'.repeat(70)}}\n`),
		() => enc('{"item": "k", "response": "a\\u0000"}\n'),
		() => enc(JSON.stringify({ responses: 'not an array' }))
	])();
}

interface Request {
	kind: keyof typeof PER_KIND;
	method: 'GET' | 'POST';
	path: string;
	account: E2eAccount | null;
	form?: Record<string, string>;
	multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
	raw?: { contentType: string; body: Buffer };
}

const nasty = (r: Rng): string =>
	r.pick([
		() => `a\u0000b`,
		() => 'x'.repeat(1 + r.int(300_000)),
		() => '\u0000'.repeat(1 + r.int(10)),
		() => '<script>alert(1)</script>',
		() => "'; drop table qa_item; --",
		() => '%00',
		() => '\uFEFF',
		() => '🩺'.repeat(r.int(1000)),
		() => String(r.next() * 1e308),
		() => ''
	])();

/** A form post to one of the main forms: sign-in, review, skip, ranking, study creation. */
function formRequest(r: Rng): Request {
	const forms: (() => Request)[] = [
		() => ({
			kind: 'forms',
			method: 'POST',
			path: '/login',
			account: null,
			form: { email: nasty(r), password: nasty(r) }
		}),
		() => ({
			kind: 'forms',
			method: 'POST',
			path: `/review/task/${1 + r.int(5)}?/submit`,
			account: 'reviewer',
			form: {
				taskId: r.pick(['1', '-1', 'x', '1e99', nasty(r)]),
				verdict: r.pick(['correct', 'nonsense', nasty(r)]),
				relevance: r.pick(['5', '0', '99', nasty(r)]),
				feedbackCategory: nasty(r),
				feedback: nasty(r)
			}
		}),
		() => ({
			kind: 'forms',
			method: 'POST',
			path: `/review/task/${1 + r.int(5)}?/skip`,
			account: 'reviewer',
			form: { taskId: String(r.int(10)), key: nasty(r), reason: nasty(r) }
		}),
		() => ({
			kind: 'forms',
			method: 'POST',
			path: '/rank/q/abcdefghijkmnpqrstuvwxyz?/submit',
			account: 'physician',
			form: { [`rank.${r.int(9)}`]: nasty(r), [`comment.${r.int(9)}`]: nasty(r) }
		}),
		() => ({
			kind: 'forms',
			method: 'POST',
			path: `/admin/studies?/${r.pick(['create', 'preview'])}`,
			account: 'organiser',
			form: { name: nasty(r), instructions: nasty(r), k: r.pick(['2', '-1', '1e9', nasty(r)]) }
		})
	];
	return r.pick(forms)();
}

/** A filter query with odd parameters: NUL, broken escapes, surrogates, huge values. */
function queryRequest(r: Rng): Request {
	const value = r.pick([
		'%00',
		'a%00b',
		'%ED%A0%80',
		'%zz',
		'%',
		'%C3',
		'x'.repeat(1 + r.int(5000)),
		'%F0%9F%A9%BA',
		'-1',
		'1e999',
		"';--"
	]);
	const path = r.pick([
		`/admin/items?q=${value}`,
		`/admin/items?type=${value}&page=${value}`,
		`/admin/audit?actor=${value}`,
		`/admin/audit?from=${value}&objectId=${value}`,
		`/admin/imports?${value}=${value}`,
		`/review?done=${value}`
	]);
	return { kind: 'queries', method: 'GET', path, account: 'organiser' };
}

function multipartOddity(r: Rng): Request {
	const boundary = '----fuzz' + r.int(1e9);
	const body = r.pick([
		() =>
			`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a\u0000.json"\r\nContent-Type: application/json\r\n\r\n[]\r\n--${boundary}--\r\n`,
		() =>
			`--${boundary}\r\nContent-Disposition: form-data; name="files"\r\n\r\n[]\r\n--${boundary}--\r\n`,
		() =>
			`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="x.json"\r\n\r\n[1,`,
		() =>
			`--other\r\nContent-Disposition: form-data; name="files"; filename="x.json"\r\n\r\n[]\r\n--other--\r\n`,
		() =>
			`--${boundary}\r\nContent-Disposition: form-data; name="a\u0000"\r\n\r\nv\r\n--${boundary}--\r\n`,
		() =>
			`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${'n'.repeat(5000)}.json"\r\n\r\n{}\r\n--${boundary}--\r\n`,
		() => `--${boundary}--\r\n`,
		() => ''
	])();
	return {
		kind: 'multipart',
		method: 'POST',
		path: `/admin/imports?/${r.pick(['qa', 'passages', 'responses'])}`,
		account: 'organiser',
		raw: { contentType: `multipart/form-data; boundary=${boundary}`, body: enc(body) }
	};
}

function uploadRequest(r: Rng, kind: 'qa' | 'passages' | 'responses'): Request {
	const buffer =
		kind === 'qa'
			? DEFECTS[r.pick(Object.keys(DEFECTS))](r)
			: kind === 'passages'
				? passageFile(r)
				: responseFile(r);
	const name = r.pick(
		kind === 'qa' ? QA_NAMES : kind === 'passages' ? PASSAGE_NAMES : RESPONSE_NAMES
	);
	const file = { name, mimeType: r.pick(['application/json', 'text/csv', 'text/plain']), buffer };
	return {
		kind,
		method: 'POST',
		path: `/admin/imports?/${kind}`,
		account: 'organiser',
		multipart:
			kind === 'passages'
				? { file }
				: kind === 'responses'
					? { files: file, model: r.pick(['m', nasty(r)]), match_by: 'auto' }
					: { files: file }
	};
}

function generate(seed: number): Request[] {
	const r = random(seed);
	const out: Request[] = [];
	for (let i = 0; i < PER_KIND.qa; i++) out.push(uploadRequest(r, 'qa'));
	for (let i = 0; i < PER_KIND.passages; i++) out.push(uploadRequest(r, 'passages'));
	for (let i = 0; i < PER_KIND.responses; i++) out.push(uploadRequest(r, 'responses'));
	for (let i = 0; i < PER_KIND.multipart; i++) out.push(multipartOddity(r));
	for (let i = 0; i < PER_KIND.forms; i++) out.push(formRequest(r));
	for (let i = 0; i < PER_KIND.queries; i++) out.push(queryRequest(r));
	// Interleave the kinds, so memory is measured under a mix.
	for (let i = out.length - 1; i > 0; i--) {
		const j = r.int(i + 1);
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** The server's resident memory in MB, from /proc. */
function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

test('thousands of malformed uploads and form posts: no 5xx, bounded memory, nothing written', async ({
	request,
	portal
}, testInfo) => {
	const sessions = readTemplate().sessions;
	const send = async (q: Request) => {
		const headers: Record<string, string> = { origin: portal.url, accept: 'application/json' };
		if (q.account) headers.cookie = `session=${sessions[q.account]}`;
		if (q.raw) headers['content-type'] = q.raw.contentType;
		const response = await request.fetch(q.path, {
			method: q.method,
			headers,
			maxRedirects: 0,
			...(q.form ? { form: q.form } : {}),
			...(q.multipart ? { multipart: q.multipart } : {}),
			...(q.raw ? { data: q.raw.body } : {})
		});
		// An action answers a refusal as data: `failure` (status inside) or `error`.
		let outcome = String(response.status());
		if (response.headers()['content-type']?.includes('application/json')) {
			const body = await response.json().catch(() => null);
			if (body?.type) outcome = `${body.type} ${body.status ?? response.status()}`;
		}
		return { status: response.status(), outcome };
	};

	const requests = generate(SEED);
	// Warm up (the first requests load code), then measure.
	for (const q of requests.slice(0, 20)) await send(q);
	const rssBefore = rssMb(portal.pid);

	const statuses: Record<string, Record<string, number>> = {};
	const serverErrors: string[] = [];
	const accepted: string[] = [];
	let next = 0;
	const worker = async () => {
		while (next < requests.length) {
			const q = requests[next++];
			const { status, outcome } = await send(q);
			const seen = (statuses[q.kind] ??= {});
			seen[outcome] = (seen[outcome] ?? 0) + 1;
			if (status >= 500) serverErrors.push(`${status} ${q.method} ${q.path.slice(0, 120)}`);
			// A study preview answers with what it would create and writes nothing.
			if (q.method === 'POST' && outcome.startsWith('success') && !q.path.endsWith('?/preview'))
				accepted.push(`${q.kind} ${q.path} ${JSON.stringify(q.multipart ?? q.form).slice(0, 300)}`);
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const rssAfter = rssMb(portal.pid);

	const sent = Object.fromEntries(
		Object.entries(statuses).map(([k, s]) => [k, Object.values(s).reduce((a, b) => a + b, 0)])
	);
	const summary = { seed: SEED, sent, statuses, rssMb: { before: rssBefore, after: rssAfter } };
	await testInfo.attach('fuzz-summary.json', { body: JSON.stringify(summary, null, 2) });
	console.log(JSON.stringify(summary));

	expect(serverErrors, 'requests answered with a server error').toEqual([]);
	expect(accepted, 'posts that were accepted').toEqual([]);
	expect((await request.get('/healthz')).ok()).toBe(true);
	expect(rssAfter - rssBefore, 'growth of the server resident memory (MB)').toBeLessThan(
		RSS_GROWTH_MB
	);

	// PGlite's folder can be read only once its server has stopped.
	await portal.stopServer();
	const handle = await openDatabase(portal.databaseUrl, { max: 1 });
	try {
		expect(await countRows(handle.db)).toEqual(before);
	} finally {
		await handle.close();
	}
});
