import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

const origin = 'https://portal.example.org';

describe('the page after sign-in', () => {
	it('follows paths of this site, with their query and fragment', () => {
		expect(safeRedirect('/admin/items?type=list#top', origin)).toBe('/admin/items?type=list#top');
		expect(safeRedirect('/review', origin)).toBe('/review');
	});

	it('never leads to another site', () => {
		for (const target of [
			'//evil.example/x',
			'/\\evil.example',
			'/\\/evil.example',
			'\\\\evil.example',
			'https://evil.example/',
			'http:evil.example',
			'javascript:alert(1)',
			'/%5Cevil.example',
			' /review',
			'',
			null
		]) {
			const to = safeRedirect(target, origin);
			// A browser resolves the Location header against the page: it must stay on this site.
			expect(new URL(to, origin).origin, String(target)).toBe(origin);
			expect(to, String(target)).toMatch(/^\/(?![/\\])/);
		}
		expect(safeRedirect('/\\evil.example', origin)).toBe('/');
		expect(safeRedirect('//evil.example/x', origin)).toBe('/');
	});
});
