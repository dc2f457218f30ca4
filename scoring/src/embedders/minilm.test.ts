import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMiniLmEmbedder } from './minilm';
import type { Embedder } from './types';
import { tinyHiddenState, tinyTokenId, writeTinyBert } from './testing/tiny-bert';

/** Hand-computed sentence vector: mean of the tiny model's rows for [CLS] pieces [SEP], L2-normed. */
function expectedVector(pieces: string[]): number[] {
	const rows = ['[CLS]', ...pieces, '[SEP]'].map((p) => tinyHiddenState(tinyTokenId(p)));
	const mean = rows[0].map((_, k) => rows.reduce((sum, r) => sum + r[k], 0) / rows.length);
	const norm = Math.hypot(...mean);
	return mean.map((x) => x / norm);
}

function expectClose(actual: Float64Array, expected: number[]): void {
	expect(actual).toHaveLength(expected.length);
	actual.forEach((x, k) => expect(Math.abs(x - expected[k])).toBeLessThan(1e-6));
}

let root: string;
let embedder: Embedder;

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), 'minilm-test-'));
	await writeTinyBert(root);
	embedder = await createMiniLmEmbedder({ modelDir: root, allowRemote: false });
});

afterAll(async () => {
	if (root) await rm(root, { recursive: true, force: true });
});

describe('createMiniLmEmbedder on a tiny BERT-shaped model', () => {
	it('is named minilm', () => {
		expect(embedder.name).toBe('minilm');
	});

	it('tokenizes with uncased WordPiece, without [CLS]/[SEP]', () => {
		expect(embedder.tokenize('The patient has Hypertension.')).toEqual([
			'the',
			'patient',
			'has',
			'hyper',
			'##tension',
			'.'
		]);
		expect(embedder.tokenize('Coughing, CAFÉ; xyz unknown')).toEqual([
			'cough',
			'##ing',
			',',
			'cafe',
			'[UNK]',
			'[UNK]',
			'un',
			'##known'
		]);
		expect(embedder.tokenize('')).toEqual([]);
	});

	it('encodes to the attention-masked mean of [CLS] … [SEP], L2-normalised', async () => {
		const [v] = await embedder.encode(['The patient has Hypertension.']);
		expect(v).toBeInstanceOf(Float64Array);
		expectClose(v, expectedVector(['the', 'patient', 'has', 'hyper', '##tension', '.']));
		expect(Math.hypot(...v)).toBeCloseTo(1, 12);
	});

	it('encodes the empty string as [CLS] [SEP]', async () => {
		const [v] = await embedder.encode(['']);
		expectClose(v, expectedVector([]));
	});

	it('gives a text the same vector whatever the padding of its batch', async () => {
		const short = 'fever';
		const long = 'the patient has a fever , high blood pressure and a cough';
		const [alone] = await embedder.encode([short]);
		const [withLong, longVec] = await embedder.encode([short, long]);
		expectClose(alone, expectedVector(['fever']));
		expectClose(withLong, Array.from(alone));
		expect(longVec).not.toEqual(alone);
	});

	it('keeps input order across batches of mixed lengths', async () => {
		const words = ['fever', 'heart attack', 'aspirin', 'blood pressure is low'];
		const texts = Array.from({ length: 70 }, (_, i) => words.slice(0, (i % 4) + 1).join(' '));
		const vectors = await embedder.encode(texts);
		expect(vectors).toHaveLength(texts.length);
		vectors.forEach((v, i) => expectClose(v, expectedVector(embedder.tokenize(texts[i]))));
	});

	it('truncates to 256 pieces keeping the final [SEP]', async () => {
		const long = Array.from({ length: 300 }, (_, i) => (i < 254 ? 'fever' : 'aspirin')).join(' ');
		const [v] = await embedder.encode([long]);
		expectClose(v, expectedVector(Array(254).fill('fever')));
	});

	it('returns no vectors for no texts', async () => {
		expect(await embedder.encode([])).toEqual([]);
	});
});

describe('createMiniLmEmbedder without weights', () => {
	it('names the missing files and what to set', async () => {
		const empty = await mkdtemp(join(tmpdir(), 'minilm-empty-'));
		try {
			const err = await createMiniLmEmbedder({ modelDir: empty, allowRemote: false }).catch(
				(e: unknown) => e
			);
			expect(err).toBeInstanceOf(Error);
			const message = (err as Error).message;
			expect(message).toContain(join(empty, 'Xenova', 'all-MiniLM-L6-v2', 'onnx', 'model.onnx'));
			expect(message).toContain(join(empty, 'Xenova', 'all-MiniLM-L6-v2', 'tokenizer.json'));
			expect(message).toContain('SCORING_MODEL_DIR');
			expect(message).toContain('SCORING_ALLOW_DOWNLOAD=1');
		} finally {
			await rm(empty, { recursive: true, force: true });
		}
	});

	it('reports only the files that are missing', async () => {
		const partial = await mkdtemp(join(tmpdir(), 'minilm-partial-'));
		try {
			const dir = await writeTinyBert(partial);
			await unlink(join(dir, 'onnx', 'model.onnx'));
			const err = await createMiniLmEmbedder({ modelDir: partial, allowRemote: false }).catch(
				(e: unknown) => e as Error
			);
			expect((err as Error).message).toContain(join(dir, 'onnx', 'model.onnx'));
			expect((err as Error).message).not.toContain(join(dir, 'config.json'));
		} finally {
			await rm(partial, { recursive: true, force: true });
		}
	});

	it('refuses to run without SCORING_MODEL_DIR when downloads are off', async () => {
		const saved = process.env.SCORING_MODEL_DIR;
		delete process.env.SCORING_MODEL_DIR;
		try {
			await expect(createMiniLmEmbedder({ allowRemote: false })).rejects.toThrow(
				/SCORING_MODEL_DIR is not set/
			);
		} finally {
			if (saved !== undefined) process.env.SCORING_MODEL_DIR = saved;
		}
	});

	it('reads SCORING_MODEL_DIR when no modelDir is given', async () => {
		const saved = process.env.SCORING_MODEL_DIR;
		process.env.SCORING_MODEL_DIR = root;
		try {
			const fromEnv = await createMiniLmEmbedder({ allowRemote: false });
			expectClose((await fromEnv.encode(['aspirin']))[0], expectedVector(['aspirin']));
		} finally {
			if (saved === undefined) delete process.env.SCORING_MODEL_DIR;
			else process.env.SCORING_MODEL_DIR = saved;
		}
	});
});
