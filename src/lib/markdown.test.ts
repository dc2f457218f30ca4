import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
	it('renders headings, paragraphs, lists and inline styles', () => {
		const html = renderMarkdown(
			'# Task\nRank **all** answers,\n*best* first.\n\n- one `x`\n- two\n\n1. first\n2. second'
		);
		expect(html).toBe(
			[
				'<h3>Task</h3>',
				'<p>Rank <strong>all</strong> answers, <em>best</em> first.</p>',
				'<ul><li>one <code>x</code></li><li>two</li></ul>',
				'<ol><li>first</li><li>second</li></ol>'
			].join('\n')
		);
	});

	it('escapes raw HTML and refuses script links', () => {
		const html = renderMarkdown(
			'<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.org/a?b=1&c=2)'
		);
		expect(html).not.toMatch(/<script|<img|href="javascript/);
		expect(html).toContain('&lt;script&gt;');
		expect(html).toContain('[x](javascript:alert(1))');
		expect(html).toContain('<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer"');
	});

	it('cannot break out of an attribute with quotes', () => {
		const html = renderMarkdown('[a](https://e.org/"onmouseover="alert(1))');
		expect(html).not.toMatch(/"onmouseover="/);
	});
});
