/** Splits rows into chunks so bulk statements stay well under Postgres's parameter limit. */
export function chunk<T>(rows: T[], size = 500): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
	return out;
}
