import { describe, expect, it } from 'vitest';
import { hrefWith, sortHref } from './list-query';

describe('table links', () => {
	const url = new URL('http://x/admin/items?type=list&sort=id&dir=asc&page=3');

	it('keep the filters and change only what is asked', () => {
		expect(hrefWith(url, { page: 4 })).toBe('?type=list&sort=id&dir=asc&page=4');
		expect(hrefWith(url, { type: null, page: '' })).toBe('?sort=id&dir=asc');
		expect(hrefWith(new URL('http://x/a?page=2'), { page: null })).toBe('/a');
	});

	it('sort a column ascending first, toggle it, and go back to page 1', () => {
		expect(sortHref(url, { sort: 'id', dir: 'asc' }, 'id')).toBe('?type=list&sort=id&dir=desc');
		expect(sortHref(url, { sort: 'id', dir: 'asc' }, 'question')).toBe(
			'?type=list&sort=question&dir=asc'
		);
		// A keyset cursor names a position in the old sort: the new sort starts at its first page.
		const keyset = new URL('http://x/admin/items?sort=updatedAt&dir=asc&after=4%3A2026&size=10');
		expect(sortHref(keyset, { sort: 'updatedAt', dir: 'asc' }, 'updatedAt')).toBe(
			'?sort=updatedAt&dir=desc&size=10'
		);
	});
});
