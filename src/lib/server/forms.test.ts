import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError, failWith, parseInput } from './errors';
import { field, formObject, formValues, readForm } from './forms';

function post(entries: [string, string | File][]): Request {
	const form = new FormData();
	for (const [k, v] of entries) form.append(k, v);
	return new Request('http://localhost/', { method: 'POST', body: form });
}

describe('reading forms', () => {
	it('turns repeated names into lists and dotted names into records', () => {
		const form = new FormData();
		form.append('types', 'list');
		form.append('types', 'short_answer');
		form.append('rank.abc', '2');
		form.append('rank.def', '1');
		form.append('name', 'Study');
		expect(formObject(form)).toEqual({
			types: ['list', 'short_answer'],
			rank: { abc: '2', def: '1' },
			name: 'Study'
		});
	});

	it('never echoes a password, token or secret back to the page', () => {
		const form = new FormData();
		form.append('email', 'a@b.org');
		form.append('password', 'hunter2hunter2');
		form.append('token', 'abc');
		expect(formValues(form)).toEqual({ email: 'a@b.org' });
	});

	it('gives the parsed data, or a 400 with one message per field and the values', async () => {
		const schema = z.object({
			name: z.string().min(1, 'must not be empty'),
			modelIds: field.list(z.coerce.number().int()),
			allowTies: field.checkbox()
		});
		const ok = await readForm(
			post([
				['name', 'A'],
				['modelIds', '3'],
				['allowTies', 'on']
			]),
			schema
		);
		expect(ok).toMatchObject({ ok: true, data: { name: 'A', modelIds: [3], allowTies: true } });

		const bad = await readForm(
			post([
				['name', ''],
				['modelIds', 'x']
			]),
			schema
		);
		expect(bad.ok).toBe(false);
		if (bad.ok) return;
		expect(bad.failure.status).toBe(400);
		expect(bad.failure.data.errors).toEqual({
			name: 'must not be empty',
			'modelIds.0': expect.stringMatching(/number/)
		});
		expect(bad.failure.data.message).toMatch(/Some fields need attention/);
		expect(bad.failure.data.values).toEqual({ name: '', modelIds: 'x' });
	});

	it('parses fields from outside the form with it (e.g. a URL parameter)', async () => {
		const schema = z.object({ itemId: z.coerce.number(), reason: z.string() });
		const read = await readForm(
			post([
				['reason', 'r'],
				['itemId', '666']
			]),
			schema,
			{
				fields: { itemId: '7' }
			}
		);
		expect(read).toMatchObject({ ok: true, data: { itemId: 7, reason: 'r' } });
	});
});

describe('domain errors', () => {
	it('map to a form failure with their status, field and problems', () => {
		const e = new DomainError('conflict', 'An account for a@b.org already exists.', {
			field: 'email'
		});
		const failure = failWith(e, { values: { email: 'a@b.org' } });
		expect(failure.status).toBe(409);
		expect(failure.data).toMatchObject({
			code: 'conflict',
			errors: { email: 'An account for a@b.org already exists.' },
			values: { email: 'a@b.org' }
		});
		expect(() => failWith(new Error('bug'))).toThrow('bug');
	});

	it('caps the record problems a page receives and says how many there were', () => {
		const records = Array.from({ length: 250 }, (_, i) => ({ index: i, field: 'q', reason: 'r' }));
		const failure = failWith(new DomainError('invalid', 'Import rejected.', { records }));
		expect(failure.data.records).toHaveLength(200);
		expect(failure.data.recordCount).toBe(250);
		// Grouped by kind, the counts cover every problem, not only the 200 sent.
		expect(failure.data.recordKinds).toEqual({ invalid: 250 });
	});

	it('come out of parseInput for invalid domain input, naming the field', () => {
		const schema = z.object({ email: z.email('must be an email address') });
		expect(parseInput(schema, { email: 'a@b.org' })).toEqual({ email: 'a@b.org' });
		let caught: unknown;
		try {
			parseInput(schema, { email: 'nope' });
		} catch (e) {
			caught = e;
		}
		expect(caught).toBeInstanceOf(DomainError);
		expect(caught).toMatchObject({
			code: 'invalid',
			field: 'email',
			message: 'email must be an email address.'
		});
	});
});
