/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of strings. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	const s = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < s.length; i++) {
		const c = s[i];
		if (quoted) {
			if (c === '"') {
				if (s[i + 1] === '"') {
					field += '"';
					i++;
				} else quoted = false;
			} else field += c;
		} else if (c === '"' && field === '') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && s[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) {
		row.push(field);
		rows.push(row);
	}
	return rows;
}

/** Quotes a value for CSV output when it needs it. */
export function csvCell(value: unknown): string {
	if (value === null || value === undefined) return '';
	const s =
		typeof value === 'string'
			? value
			: typeof value === 'object'
				? JSON.stringify(value)
				: String(value);
	return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One CSV cell safe to open in a spreadsheet: quoted when it holds a separator, quote or line
 * break; a text that a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return) gets a leading `'`. For exports holding free text a user typed.
 */
export function safeCsvCell(value: unknown): string {
	let text = value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
	if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Renders rows as injection-safe CSV (`safeCsvCell`) with a header line. */
export function toSafeCsv(columns: readonly string[], rows: Record<string, unknown>[]): string {
	const lines = [columns.join(',')];
	for (const r of rows) lines.push(columns.map((c) => safeCsvCell(r[c])).join(','));
	return lines.join('\r\n') + '\r\n';
}

/** Renders rows (objects with the same keys) as CSV with a header line. */
export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
	const lines = [columns.join(',')];
	for (const r of rows) lines.push(columns.map((c) => csvCell(r[c])).join(','));
	return lines.join('\r\n') + '\r\n';
}
