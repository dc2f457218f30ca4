// The surface-feature attacker of the blinding tests: what a page is reduced to (its skeleton, its
// data's shape) and the classifier that tries to tell gold checks from ordinary pages by them.
import { unflatten } from 'devalue';
import { expect } from '../fixtures';

/** Tags and attribute names in document order, with every text and attribute value dropped. */
export function skeleton(html: string): string {
	return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)]
		.map(([whole, tag, attributes]) => {
			const names = [...attributes.matchAll(/([\w:-]+)(?==)/g)].map((m) => m[1]).sort();
			return `${whole.startsWith('</') ? '/' : ''}${tag}[${names.join(',')}]`;
		})
		.join(' ');
}

/** The keys and value types of a JSON value, all the way down, with values dropped. */
export function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value instanceof Date) return 'date';
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value)
				.sort(([a], [b]) => (a < b ? -1 : 1))
				.map(([k, v]) => [k, shape(v)])
		);
	return typeof value;
}

/** The page's data as the browser rebuilds it (SvelteKit sends each node devalue-flattened). */
export function pageData(text: string): unknown {
	const payload = JSON.parse(text) as { nodes: ({ type: string; data?: unknown[] } | null)[] };
	return payload.nodes.map((node) =>
		node?.type === 'data' && node.data ? unflatten(node.data as never) : node
	);
}

export interface Labelled {
	gold: boolean;
	features: Record<string, string>;
}

/**
 * Leave-one-out: each page's class is guessed from the others' pages sharing its value of every
 * feature (the majority class among them, else the majority overall). Returns the hits.
 */
export function leaveOneOut(rows: Labelled[]): number {
	let hits = 0;
	rows.forEach((row, i) => {
		const others = rows.filter((_, j) => j !== i);
		const same = others.filter((o) =>
			Object.entries(row.features).every(([k, v]) => o.features[k] === v)
		);
		const pool = same.length > 0 ? same : others;
		const gold = pool.filter((o) => o.gold).length;
		const guess = gold * 2 === pool.length ? false : gold * 2 > pool.length;
		if (guess === row.gold) hits++;
	});
	return hits;
}

/**
 * The attack: no value of a surface feature (those named, or all; '-' is "no value") is seen on
 * gold pages only, and the leave-one-out classifier on all features together does no better
 * than always guessing the larger class.
 */
export function expectIndistinguishable(
	rows: Labelled[],
	options: { where: string; features?: string[] }
) {
	for (const feature of options.features ?? Object.keys(rows[0].features)) {
		const gold = new Set(rows.filter((r) => r.gold).map((r) => r.features[feature]));
		const live = new Set(rows.filter((r) => !r.gold).map((r) => r.features[feature]));
		const marking = [...gold].filter((v) => !live.has(v) && v !== '-');
		expect(
			marking,
			`${options.where}: ${feature} marks a gold page (ordinary: ${[...live].slice(0, 2).join(' | ')})`
		).toEqual([]);
	}
	const golds = rows.filter((r) => r.gold).length;
	const majority = Math.max(golds, rows.length - golds);
	expect(
		leaveOneOut(rows),
		`${options.where}: the attacker beats always guessing the larger class`
	).toBeLessThanOrEqual(majority);
}
