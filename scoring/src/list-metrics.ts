/** Label-level precision/recall/F1 triple. */
export interface Prf {
	precision: number;
	recall: number;
	f1: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const f1Of = (tp: number, fp: number, fn: number) => ratio(2 * tp, 2 * tp + fp + fn);

/**
 * sklearn multilabel precision_recall_fscore_support (zero_division=0) over every label seen in any
 * expected or predicted set: `macro` = mean over labels, `micro` = pooled counts
 * (docs/scoring-behaviour.md §6.4).
 */
export function labelMetrics(
	expected: Set<string>[],
	predicted: Set<string>[]
): { macro: Prf; micro: Prf } {
	const tp = new Map<string, number>();
	const fp = new Map<string, number>();
	const fn = new Map<string, number>();
	const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
	expected.forEach((e, i) => {
		const p = predicted[i];
		for (const l of e) inc(p.has(l) ? tp : fn, l);
		for (const l of p) if (!e.has(l)) inc(fp, l);
	});
	const labels = new Set([...tp.keys(), ...fp.keys(), ...fn.keys()]);
	if (labels.size === 0) return { macro: zero(), micro: zero() };
	let sp = 0;
	let sr = 0;
	let sf = 0;
	let TP = 0;
	let FP = 0;
	let FN = 0;
	for (const l of labels) {
		const t = tp.get(l) ?? 0;
		const f = fp.get(l) ?? 0;
		const n = fn.get(l) ?? 0;
		sp += ratio(t, t + f);
		sr += ratio(t, t + n);
		sf += f1Of(t, f, n);
		TP += t;
		FP += f;
		FN += n;
	}
	const k = labels.size;
	return {
		macro: { precision: sp / k, recall: sr / k, f1: sf / k },
		micro: { precision: ratio(TP, TP + FP), recall: ratio(TP, TP + FN), f1: f1Of(TP, FP, FN) }
	};
}

function zero(): Prf {
	return { precision: 0, recall: 0, f1: 0 };
}

/** MAP, MRR and P@5 of ranked predictions against gold lists (evaluate.py compute_*). */
export function irMetrics(
	predicted: string[][],
	gold: string[][]
): { map: number; mrr: number; pAt5: number } {
	if (predicted.length === 0) return { map: 0, mrr: 0, pAt5: 0 };
	let map = 0;
	let mrr = 0;
	let p5 = 0;
	predicted.forEach((preds, i) => {
		const g = new Set(gold[i]);
		let hits = 0;
		let ap = 0;
		let rank = 0;
		preds.forEach((p, j) => {
			if (g.has(p)) {
				hits++;
				ap += hits / (j + 1);
				if (rank === 0) rank = j + 1;
			}
		});
		map += g.size > 0 ? ap / g.size : 0;
		mrr += rank > 0 ? 1 / rank : 0;
		p5 += preds.slice(0, 5).filter((p) => g.has(p)).length / 5;
	});
	const n = predicted.length;
	return { map: map / n, mrr: mrr / n, pAt5: p5 / n };
}
