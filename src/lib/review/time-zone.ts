// The reviewer's time zone travels to the server in a cookie, so that "today" and "this week"
// on the review screen are the reviewer's own calendar day and week.

/** The cookie naming the browser's IANA time zone (e.g. Europe/Berlin). */
export const TIME_ZONE_COOKIE = 'tz';

/**
 * Remembers the browser's time zone for the server; true when it differs from `used` (what
 * the server counted with), so the page should load its counters again.
 */
export function rememberTimeZone(used: string): boolean {
	const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
	if (!zone || zone === used) return false;
	// Already sent, and the server spells or knows the zone otherwise: do not reload again.
	const sent = document.cookie.match(new RegExp(`(?:^|; )${TIME_ZONE_COOKIE}=([^;]*)`))?.[1];
	if (sent && decodeURIComponent(sent) === zone) return false;
	document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
	return true;
}
