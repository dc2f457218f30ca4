/** A sentence embedder plus the word-piece tokenizer the semantic score's token layer and IDF use. */
export interface Embedder {
	/** 'minilm' | `hash:${D}` — recorded with every scoring result. */
	readonly name: string;
	/** One vector per text, in order. */
	encode(texts: string[]): Promise<Float64Array[]>;
	/** Word pieces; continuation pieces start with '##' (BERT WordPiece convention). */
	tokenize(text: string): string[];
}

/** Options understood by createEmbedder; only the MiniLM embedder reads them. */
export interface EmbedderOptions {
	/** Directory laid out as `<dir>/Xenova/all-MiniLM-L6-v2/{config.json,tokenizer.json,onnx/model.onnx}`. */
	modelDir?: string;
	/** Let transformers.js download weights from the hub when they are not found locally. */
	allowRemote?: boolean;
}
