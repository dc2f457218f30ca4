// A deliberately small Markdown subset for study instructions: headings, paragraphs, lists,
// bold, italic, inline code and http(s)/mailto links. All text is HTML-escaped first and no raw
// HTML passes through, so the output is safe to render with {@html}.

function escapeHtml(s: string): string {
	return s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function inline(text: string): string {
	const codes: string[] = [];
	let s = escapeHtml(text).replace(/`([^`]+)`/g, (_, c: string) => {
		codes.push(`<code>${c}</code>`);
		return `\uE000${codes.length - 1}\uE001`;
	});
	s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) =>
		/^(https?:\/\/|mailto:)/i.test(href)
			? `<a href="${href}" rel="noopener noreferrer" target="_blank">${label}</a>`
			: whole
	);
	s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
	s = s.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
	// Private-use characters mark code spans so later rules leave their content alone.
	return s.replace(/\uE000(\d+)\uE001/g, (_, i: string) => codes[Number(i)]);
}

/** Renders the supported Markdown subset to HTML that contains no user-supplied markup. */
export function renderMarkdown(source: string): string {
	const out: string[] = [];
	let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
	let paragraph: string[] = [];
	const flushParagraph = () => {
		if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`);
		paragraph = [];
	};
	const flushList = () => {
		if (list)
			out.push(
				`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`
			);
		list = null;
	};
	for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
		const line = raw.trim();
		const heading = /^(#{1,3})\s+(.*)$/.exec(line);
		const bullet = /^[-*+]\s+(.*)$/.exec(line);
		const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
		if (!line) {
			flushParagraph();
			flushList();
		} else if (heading) {
			flushParagraph();
			flushList();
			// Instructions sit under the page's own h1/h2, so headings start at h3.
			const level = heading[1].length + 2;
			out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
		} else if (bullet || numbered) {
			flushParagraph();
			const tag = bullet ? 'ul' : 'ol';
			if (list && list.tag !== tag) flushList();
			if (!list) list = { tag, items: [] };
			list.items.push((bullet ?? numbered)![1]);
		} else {
			flushList();
			paragraph.push(line);
		}
	}
	flushParagraph();
	flushList();
	return out.join('\n');
}
