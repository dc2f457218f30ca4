// Files posted to a form action, handed to an import as they arrive: the import reads the bytes
// (and checks they are UTF-8) without the whole file ever being held as one string.
import { z } from 'zod';
import type { StreamedFile } from './domain/imports';
import { field } from './forms';

/** The chosen, non-empty files of a file input (an empty input posts one empty file). */
export const chosenFiles = (missing: string) =>
	field
		.list(z.instanceof(File))
		.transform((files) => files.filter((f) => f.size > 0))
		.refine((files) => files.length > 0, missing);

/** An uploaded file's bytes as the import reads them (it checks they are UTF-8). */
async function* bytesOf(file: File): AsyncGenerator<Uint8Array> {
	const reader = file.stream().getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			yield value;
		}
	} finally {
		reader.releaseLock();
	}
}

/** Uploaded files as imports read them, each streamed. */
export const streamed = (files: File[]): StreamedFile[] =>
	files.map((f) => ({ fileName: f.name, chunks: bytesOf(f) }));
