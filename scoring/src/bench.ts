import { createHashEmbedder } from './embedders/hash';
import { scoreList } from './list';
import { scoreMultipleChoice } from './multiple-choice';
import { ngramMetrics } from './ngram/index';
import { mulberry32 } from './prng';
import { SemanticScorer } from './semantic';
import { scoreTrueFalse } from './true-false';
import type { QaRecord } from './types';

const WORDS = (
	'patient insulin renal failure acute chronic therapy dose infection cardiac artery vein nerve ' +
	'muscle bone fracture tumour benign malignant biopsy diagnosis symptom fever cough pain blood ' +
	'pressure glucose liver kidney lung heart brain enzyme receptor hormone antibody vaccine virus'
).split(' ');

function sentence(rand: () => number, n: number): string {
	return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

/** Deterministic synthetic closed-ended items and responses (no dataset content). */
function closedItems(
	n: number
): { kind: 'tf' | 'mc' | 'list'; record: QaRecord; response: string }[] {
	const rand = mulberry32(7);
	const out: { kind: 'tf' | 'mc' | 'list'; record: QaRecord; response: string }[] = [];
	for (let i = 0; i < n; i++) {
		const options = Array.from({ length: 4 + (i % 5) }, () => sentence(rand, 3));
		const k = i % 3;
		if (k === 0) {
			const answer = rand() < 0.5 ? 'True' : 'False';
			out.push({
				kind: 'tf',
				record: { question: 'q', answer },
				response: rand() < 0.7 ? answer : 'False.'
			});
		} else if (k === 1) {
			const gold = options[i % 4];
			out.push({
				kind: 'mc',
				record: { question: 'q', options, correct_answer: gold },
				response: rand() < 0.5 ? gold : 'B'
			});
		} else {
			const answer = options.slice(0, 2);
			out.push({
				kind: 'list',
				record: { question: 'q', options, answer },
				response: `${options[0]}, ${options[2]}`
			});
		}
	}
	return out;
}

function pairs(n: number): [string, string][] {
	const rand = mulberry32(11);
	return Array.from(
		{ length: n },
		() => [sentence(rand, 12), sentence(rand, 10)] as [string, string]
	);
}

/** Runs fn over n items and reports items/s and the peak RSS sampled during the run. */
async function measure(
	label: string,
	n: number,
	fn: (i: number) => unknown,
	io: { stdout: (s: string) => void }
) {
	let peak = process.memoryUsage().rss;
	const t0 = performance.now();
	for (let i = 0; i < n; i++) {
		const r = fn(i);
		if (r instanceof Promise) await r;
		if ((i & 1023) === 0) peak = Math.max(peak, process.memoryUsage().rss);
	}
	const ms = performance.now() - t0;
	peak = Math.max(peak, process.memoryUsage().rss);
	const line = `${label.padEnd(34)} ${String(n).padStart(6)} items ${ms.toFixed(0).padStart(7)} ms ${Math.round(
		(n / ms) * 1000
	)
		.toString()
		.padStart(9)} items/s  peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`;
	io.stdout(line + '\n');
	return { label, n, ms, itemsPerSecond: (n / ms) * 1000, peakRssMb: peak / 2 ** 20 };
}

/** Scoring throughput on deterministic synthetic data (50,000 items by default, hash:384 embedder). */
export async function runScoringBench(io: { stdout: (s: string) => void }, n = 50_000) {
	const closed = closedItems(n);
	const run = (i: number) => {
		const c = closed[i];
		if (c.kind === 'tf') return scoreTrueFalse(c.record, c.response, 'official');
		if (c.kind === 'mc') return scoreMultipleChoice(c.record, c.response, 'official');
		return scoreList(c.record, c.response, 'official');
	};
	const ps = pairs(n);
	const embedder = createHashEmbedder(384);
	const sem = await SemanticScorer.create(
		embedder,
		'official',
		ps.slice(0, 1000).map((p) => p[0])
	);
	const results = [
		await measure('closed-ended (TF/MC/list), 5k', Math.min(5000, n), run, io),
		await measure('closed-ended (TF/MC/list)', n, run, io),
		await measure(
			'n-gram (BLEU/ROUGE/METEOR), 5k',
			Math.min(5000, n),
			(i) => ngramMetrics(ps[i][0], ps[i][1]),
			io
		),
		await measure('n-gram (BLEU/ROUGE/METEOR)', n, (i) => ngramMetrics(ps[i][0], ps[i][1]), io),
		await measure('semantic score (hash:384)', n, (i) => sem.score(ps[i][0], ps[i][1]), io)
	];
	return results;
}
