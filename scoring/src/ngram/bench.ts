// Throughput check for ngramMetrics: `npx tsx scoring/src/ngram/bench.ts [pairs]`.
// Builds deterministic 20–60-word clinical-style answer pairs and reports WordNet load time,
// memory and pairs per second (cold caches on the first pass, warm on the second).

import { ngramMetrics } from './index';
import { getWordnet } from './wordnet';

const WORDS = (
	'the patient presents with low serum calcium levels which cause muscle cramps tetany and ' +
	'cardiac arrhythmias; treatment includes intravenous calcium gluconate (10%) and vitamin d. ' +
	'hypocalcemia often follows thyroid surgery, renal failure or pancreatitis, and doctors ' +
	"monitor the qt interval. it's increased in children, e.g. neonates, but isn't common. " +
	'dosing: 1-2 g over 10 minutes, repeated as needed until symptoms resolve. the kidneys ' +
	'excrete phosphate; parathyroid hormone raises calcium by increasing bone resorption.'
).split(' ');

function rng(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

function makePairs(n: number): [string, string][] {
	const rand = rng(42);
	const pick = (): string => WORDS[Math.floor(rand() * WORDS.length)];
	const pairs: [string, string][] = [];
	for (let i = 0; i < n; i++) {
		const len = 20 + Math.floor(rand() * 41);
		const ref = Array.from({ length: len }, pick);
		const hyp = ref.map((w) => (rand() < 0.35 ? pick() : w));
		if (rand() < 0.5) hyp.splice(Math.floor(rand() * hyp.length), Math.floor(rand() * 8));
		pairs.push([ref.join(' ') + '.', hyp.join(' ')]);
	}
	return pairs;
}

const n = Number(process.argv[2] ?? 5000);
const pairs = makePairs(n);
const heapBefore = process.memoryUsage();
let t = performance.now();
getWordnet();
const loadMs = performance.now() - t;
const heapAfter = process.memoryUsage();
console.log(
	`WordNet load ${loadMs.toFixed(0)} ms, +${((heapAfter.rss - heapBefore.rss) / 2 ** 20).toFixed(1)} MB RSS, ` +
		`+${((heapAfter.arrayBuffers - heapBefore.arrayBuffers) / 2 ** 20).toFixed(1)} MB buffers`
);
for (const pass of ['cold', 'warm']) {
	t = performance.now();
	let sum = 0;
	for (const [e, p] of pairs) {
		const m = ngramMetrics(e, p);
		sum += m.bleu + m.rouge + m.meteor;
	}
	const ms = performance.now() - t;
	console.log(
		`${pass}: ${n} pairs in ${ms.toFixed(0)} ms (${((n / ms) * 1000).toFixed(0)} pairs/s), checksum ${sum.toFixed(6)}`
	);
}
