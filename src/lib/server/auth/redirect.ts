/**
 * Where to send the browser after signing in: `target` when it is a path of this very site, else
 * `/`. The target is parsed against the site's origin as a browser would, so tricks such as
 * `//evil.example`, `/\evil.example`, `/%2F…` decoded by the browser, or an absolute URL cannot
 * lead to another site (an open redirect).
 */
export function safeRedirect(target: string | null | undefined, origin: string): string {
	if (!target || !target.startsWith('/')) return '/';
	let url: URL;
	try {
		url = new URL(target, origin);
	} catch {
		return '/';
	}
	if (url.origin !== new URL(origin).origin) return '/';
	// Backslashes are slashes to a browser; a path that still starts with two is protocol-relative.
	const path = `${url.pathname}${url.search}${url.hash}`;
	return path.startsWith('//') ? '/' : path;
}
