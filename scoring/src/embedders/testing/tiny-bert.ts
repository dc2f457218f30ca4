/**
 * Writes a tiny BERT-shaped model directory for tests.
 *
 * Why: these machines cannot download the real all-MiniLM-L6-v2 weights, but the embedder's
 * loading, tokenization, padding and pooling code should still run for real. This writes the same
 * layout transformers.js reads (`<root>/<org>/<name>/{config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model.onnx}`) with a model whose outputs can be computed by hand:
 *
 *   last_hidden_state[b, s] = WORD[input_ids[b, s]] + TYPE[token_type_ids[b, s]]
 *                             + MASK[attention_mask[b, s]]
 *
 * (three ONNX Gather lookups and two Adds). Every table entry is a multiple of 1/16, so float32
 * holds it exactly. MASK[0] is non-zero on purpose: padded positions get outputs that would change
 * the pooled vector if pooling ignored the attention mask.
 *
 * The ONNX protobuf is hand-encoded (a few dozen lines of wire format) so the tests need no
 * protobuf dependency; field numbers are from onnx/onnx.proto.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Width of the tiny model's hidden state. */
export const TINY_HIDDEN = 8;

/** Vocabulary of the tiny WordPiece tokenizer; a token's id is its index. */
export const TINY_VOCAB = [
	'[PAD]',
	'[UNK]',
	'[CLS]',
	'[SEP]',
	'[MASK]',
	'the',
	'patient',
	'has',
	'a',
	'fever',
	'heart',
	'attack',
	'hyper',
	'##tension',
	'cough',
	'##ing',
	'##s',
	'blood',
	'pressure',
	'is',
	'high',
	'low',
	'cafe',
	'aspirin',
	'.',
	',',
	'?',
	'-',
	'un',
	'##known'
] as const;

/** Id of a vocabulary token (throws for tokens outside TINY_VOCAB). */
export function tinyTokenId(token: string): number {
	const id = (TINY_VOCAB as readonly string[]).indexOf(token);
	if (id < 0) throw new Error(`'${token}' is not in the tiny vocabulary`);
	return id;
}

/** Deterministic table entry in [-1, 1), a multiple of 1/16 (exact in float32). */
function entry(row: number, col: number, salt: number): number {
	return (((row * 7 + col * 5 + salt * 3 + row * col) % 32) - 16) / 16;
}

const tableRow = (salt: number) => (row: number) =>
	Array.from({ length: TINY_HIDDEN }, (_, col) => entry(row, col, salt));

/** Word embedding row of a token id. */
export const tinyWordRow = tableRow(1);
/** Token-type embedding row (type 0 or 1). */
export const tinyTypeRow = tableRow(2);
/** Attention-mask embedding row (mask 0 or 1). */
export const tinyMaskRow = tableRow(3);

/** Hidden state the tiny model outputs for one position, computed by hand. */
export function tinyHiddenState(tokenId: number, typeId = 0, mask = 1): number[] {
	const w = tinyWordRow(tokenId);
	const t = tinyTypeRow(typeId);
	const m = tinyMaskRow(mask);
	return w.map((x, k) => x + t[k] + m[k]);
}

/** Writes the tiny model under `<root>/<modelId>/` and returns that directory. */
export async function writeTinyBert(
	root: string,
	modelId = 'Xenova/all-MiniLM-L6-v2'
): Promise<string> {
	const dir = join(root, ...modelId.split('/'));
	await mkdir(join(dir, 'onnx'), { recursive: true });
	await writeFile(join(dir, 'config.json'), JSON.stringify(configJson(), null, 2));
	await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(), null, 2));
	await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(), null, 2));
	await writeFile(join(dir, 'onnx', 'model.onnx'), modelOnnx());
	return dir;
}

function configJson() {
	return {
		architectures: ['BertModel'],
		model_type: 'bert',
		hidden_size: TINY_HIDDEN,
		num_hidden_layers: 1,
		num_attention_heads: 1,
		intermediate_size: 2 * TINY_HIDDEN,
		hidden_act: 'gelu',
		max_position_embeddings: 512,
		type_vocab_size: 2,
		vocab_size: TINY_VOCAB.length,
		pad_token_id: 0,
		layer_norm_eps: 1e-12
	};
}

const SPECIAL = new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);

/** tokenizer.json in the shape of bert-base-uncased's (the one all-MiniLM-L6-v2 ships). */
function tokenizerJson() {
	const special = (token: string) => ({
		SpecialToken: { id: token, type_id: 0 }
	});
	return {
		version: '1.0',
		truncation: null,
		padding: null,
		added_tokens: TINY_VOCAB.flatMap((content, id) =>
			SPECIAL.has(content)
				? [
						{
							id,
							content,
							single_word: false,
							lstrip: false,
							rstrip: false,
							normalized: false,
							special: true
						}
					]
				: []
		),
		normalizer: {
			type: 'BertNormalizer',
			clean_text: true,
			handle_chinese_chars: true,
			strip_accents: null,
			lowercase: true
		},
		pre_tokenizer: { type: 'BertPreTokenizer' },
		post_processor: {
			type: 'TemplateProcessing',
			single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
			pair: [
				special('[CLS]'),
				{ Sequence: { id: 'A', type_id: 0 } },
				special('[SEP]'),
				{ Sequence: { id: 'B', type_id: 1 } },
				{ SpecialToken: { id: '[SEP]', type_id: 1 } }
			],
			special_tokens: Object.fromEntries(
				['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [tinyTokenId(t)], tokens: [t] }])
			)
		},
		decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
		model: {
			type: 'WordPiece',
			unk_token: '[UNK]',
			continuing_subword_prefix: '##',
			max_input_chars_per_word: 100,
			vocab: Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i]))
		}
	};
}

function tokenizerConfig() {
	return {
		tokenizer_class: 'BertTokenizer',
		do_lower_case: true,
		model_max_length: 512,
		clean_up_tokenization_spaces: true,
		cls_token: '[CLS]',
		sep_token: '[SEP]',
		pad_token: '[PAD]',
		unk_token: '[UNK]',
		mask_token: '[MASK]'
	};
}

// --- ONNX protobuf wire encoding -------------------------------------------------------------

type Bytes = Uint8Array;

function varint(n: number): number[] {
	const out: number[] = [];
	while (n > 0x7f) {
		out.push((n & 0x7f) | 0x80);
		n = Math.floor(n / 128);
	}
	out.push(n);
	return out;
}

function concat(parts: Bytes[]): Bytes {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** Varint field (wire type 0); only non-negative values occur here. */
const vField = (field: number, value: number): Bytes =>
	Uint8Array.from([...varint(field << 3), ...varint(value)]);

/** Length-delimited field (wire type 2): bytes, strings and nested messages. */
function lField(field: number, value: Bytes | string): Bytes {
	const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
	return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(bytes.length)]), bytes]);
}

const msg = (...fields: Bytes[]) => concat(fields);

const FLOAT = 1; // TensorProto.DataType
const INT64 = 7;

/** ValueInfoProto for a tensor; string dims are symbolic (dim_param), numbers fixed (dim_value). */
function valueInfo(name: string, elemType: number, dims: (string | number)[]): Bytes {
	const dim = (d: string | number) =>
		lField(1, typeof d === 'string' ? lField(2, d) : vField(1, d));
	const shape = msg(...dims.map(dim));
	const tensorType = msg(vField(1, elemType), lField(2, shape));
	return msg(lField(1, name), lField(2, lField(1, tensorType)));
}

/** TensorProto initializer holding a float32 matrix as raw little-endian data. */
function floatMatrix(name: string, rows: number[][]): Bytes {
	const data = new Float32Array(rows.flat());
	return msg(
		vField(1, rows.length),
		vField(1, rows[0].length),
		vField(2, FLOAT),
		lField(8, name),
		lField(9, new Uint8Array(data.buffer))
	);
}

function node(opType: string, inputs: string[], output: string): Bytes {
	return msg(
		...inputs.map((i) => lField(1, i)),
		lField(2, output),
		lField(3, output),
		lField(4, opType)
	);
}

function modelOnnx(): Bytes {
	const seq = ['batch_size', 'sequence_length'];
	const graph = msg(
		lField(1, node('Gather', ['word_embeddings', 'input_ids'], 'word')),
		lField(1, node('Gather', ['token_type_embeddings', 'token_type_ids'], 'type')),
		lField(1, node('Gather', ['mask_embeddings', 'attention_mask'], 'mask')),
		lField(1, node('Add', ['word', 'type'], 'word_type')),
		lField(1, node('Add', ['word_type', 'mask'], 'last_hidden_state')),
		lField(2, 'tiny_bert'),
		lField(
			5,
			floatMatrix(
				'word_embeddings',
				TINY_VOCAB.map((_, i) => tinyWordRow(i))
			)
		),
		lField(5, floatMatrix('token_type_embeddings', [0, 1].map(tinyTypeRow))),
		lField(5, floatMatrix('mask_embeddings', [0, 1].map(tinyMaskRow))),
		lField(11, valueInfo('input_ids', INT64, seq)),
		lField(11, valueInfo('attention_mask', INT64, seq)),
		lField(11, valueInfo('token_type_ids', INT64, seq)),
		lField(12, valueInfo('last_hidden_state', FLOAT, [...seq, TINY_HIDDEN]))
	);
	const opset = msg(lField(1, ''), vField(2, 13));
	return msg(
		vField(1, 8),
		lField(2, 'cliniq-portal tiny-bert'),
		lField(7, graph),
		lField(8, opset)
	);
}
