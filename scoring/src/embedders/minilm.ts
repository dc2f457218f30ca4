/**
 * Sentence embeddings from all-MiniLM-L6-v2 (docs/scoring-behaviour.md §7) through transformers.js
 * on onnxruntime-node: mean pooling over all tokens weighted by the attention mask, then L2
 * normalisation, as sentence-transformers does.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
	AutoModel,
	AutoTokenizer,
	Tensor,
	env,
	type PreTrainedModel,
	type PreTrainedTokenizer
} from '@huggingface/transformers';
import type { Embedder } from './types';

const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';

/** Files transformers.js reads for a BERT feature extractor with `dtype: 'fp32'`. */
export const MODEL_FILES = [
	'config.json',
	'tokenizer.json',
	'tokenizer_config.json',
	'onnx/model.onnx'
] as const;

/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2, counting [CLS] and [SEP]. */
const MAX_PIECES = 256;

/** Texts per forward pass: large enough to amortise the ONNX call, small enough for padding. */
const BATCH_SIZE = 32;

/** Guards the division by the vector norm, as torch.nn.functional.normalize does. */
const NORM_EPS = 1e-12;

/** Where to find the model and whether it may be downloaded. */
export interface MiniLmOptions {
	/** Root holding `<modelId>/…`; defaults to env SCORING_MODEL_DIR. */
	modelDir?: string;
	/** Allow downloading into the transformers.js cache; defaults to env SCORING_ALLOW_DOWNLOAD=1. */
	allowRemote?: boolean;
	/** Hugging Face model id, also the sub-directory under modelDir. */
	modelId?: string;
}

/** Loads all-MiniLM-L6-v2 from a local directory (or, if allowed, the Hub) as an Embedder. */
export async function createMiniLmEmbedder(opts: MiniLmOptions = {}): Promise<Embedder> {
	const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
	const allowRemote = opts.allowRemote ?? process.env.SCORING_ALLOW_DOWNLOAD === '1';
	const rawDir = opts.modelDir ?? process.env.SCORING_MODEL_DIR;
	const modelDir = rawDir ? resolve(rawDir) : undefined;

	if (!allowRemote) assertLocalFiles(modelId, modelDir);

	// transformers.js keeps these settings in a process-wide singleton; every loader in this
	// process sees them, which is what the scoring CLI and the app want (one model, one policy).
	env.allowRemoteModels = allowRemote;
	env.allowLocalModels = true;
	if (modelDir) env.localModelPath = modelDir;

	let tokenizer: PreTrainedTokenizer;
	let model: PreTrainedModel;
	try {
		const loadOpts = { local_files_only: !allowRemote };
		tokenizer = await AutoTokenizer.from_pretrained(modelId, loadOpts);
		model = await AutoModel.from_pretrained(modelId, { ...loadOpts, dtype: 'fp32', device: 'cpu' });
	} catch (err) {
		const where = modelDir ? `from ${join(modelDir, modelId)}` : 'from the Hugging Face Hub';
		throw new Error(
			`Could not load the MiniLM model ${modelId} ${where}: ${(err as Error).message}. ` +
				howToProvide(),
			{ cause: err }
		);
	}
	return new MiniLmEmbedder(tokenizer, model);
}

function howToProvide(): string {
	return (
		'Set SCORING_MODEL_DIR to a directory containing ' +
		`<dir>/${DEFAULT_MODEL_ID}/{${MODEL_FILES.join(',')}}, ` +
		'or set SCORING_ALLOW_DOWNLOAD=1 on a machine with network access to fetch it once.'
	);
}

/** Fails with the absolute paths that were checked instead of a vague loader error. */
function assertLocalFiles(modelId: string, modelDir: string | undefined): void {
	if (!modelDir) {
		throw new Error(
			`MiniLM weights for ${modelId} not configured: SCORING_MODEL_DIR is not set and ` +
				`downloading is disabled. ${howToProvide()}`
		);
	}
	const expected = MODEL_FILES.map((f) => join(modelDir, modelId, f));
	const missing = expected.filter((p) => !existsSync(p));
	if (missing.length > 0) {
		throw new Error(
			`MiniLM weights for ${modelId} not found. Looked in ${join(modelDir, modelId)} ` +
				`and these files are missing: ${missing.join(', ')}. ${howToProvide()}`
		);
	}
}

class MiniLmEmbedder implements Embedder {
	readonly name = 'minilm';

	constructor(
		private readonly tokenizer: PreTrainedTokenizer,
		private readonly model: PreTrainedModel
	) {}

	tokenize(text: string): string[] {
		return this.tokenizer.tokenize(text);
	}

	async encode(texts: string[]): Promise<Float64Array[]> {
		const ids = texts.map((t) => this.pieceIds(t));
		// Batching texts of similar length keeps padding (wasted compute) small; a text's vector
		// does not depend on its batch because padded positions are masked out of the mean.
		const order = ids.map((_, i) => i).sort((a, b) => ids[a].length - ids[b].length);
		const out = new Array<Float64Array>(texts.length);
		for (let start = 0; start < order.length; start += BATCH_SIZE) {
			const batch = order.slice(start, start + BATCH_SIZE);
			const vectors = await this.encodeBatch(batch.map((i) => ids[i]));
			batch.forEach((i, k) => (out[i] = vectors[k]));
		}
		return out;
	}

	/**
	 * [CLS] pieces [SEP], cut to MAX_PIECES keeping the final [SEP] as sentence-transformers does
	 * (the transformers.js tokenizer's own truncation would cut the [SEP] off).
	 */
	private pieceIds(text: string): number[] {
		const ids = this.tokenizer.encode(text);
		if (ids.length <= MAX_PIECES) return ids;
		return [...ids.slice(0, MAX_PIECES - 1), ids[ids.length - 1]];
	}

	private async encodeBatch(batch: number[][]): Promise<Float64Array[]> {
		const seqLen = Math.max(...batch.map((ids) => ids.length));
		const padId = BigInt(this.tokenizer.pad_token_id ?? 0);
		const inputIds = new BigInt64Array(batch.length * seqLen).fill(padId);
		const mask = new BigInt64Array(batch.length * seqLen);
		batch.forEach((ids, b) =>
			ids.forEach((id, s) => {
				inputIds[b * seqLen + s] = BigInt(id);
				mask[b * seqLen + s] = 1n;
			})
		);
		const dims = [batch.length, seqLen];
		// token_type_ids (all zero for single sentences) are filled in by transformers.js when the
		// ONNX graph declares them.
		const output = await this.model({
			input_ids: new Tensor('int64', inputIds, dims),
			attention_mask: new Tensor('int64', mask, dims)
		});
		const hidden = output.last_hidden_state as Tensor;
		return meanPoolNormalised(hidden.data as Float32Array, hidden.dims, mask);
	}
}

/** Attention-mask weighted mean over positions, then L2 normalisation, in float64. */
function meanPoolNormalised(
	hidden: Float32Array,
	[batchSize, seqLen, width]: number[],
	mask: BigInt64Array
): Float64Array[] {
	const out: Float64Array[] = [];
	for (let b = 0; b < batchSize; b++) {
		const v = new Float64Array(width);
		let count = 0;
		for (let s = 0; s < seqLen; s++) {
			if (mask[b * seqLen + s] === 0n) continue;
			count++;
			const row = (b * seqLen + s) * width;
			for (let k = 0; k < width; k++) v[k] += hidden[row + k];
		}
		let norm = 0;
		for (let k = 0; k < width; k++) {
			v[k] /= Math.max(count, 1);
			norm += v[k] * v[k];
		}
		const scale = 1 / Math.max(Math.sqrt(norm), NORM_EPS);
		for (let k = 0; k < width; k++) v[k] *= scale;
		out.push(v);
	}
	return out;
}
