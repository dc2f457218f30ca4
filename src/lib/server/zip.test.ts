import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zipStore } from './zip';

/** Reads a stored (uncompressed) zip through its central directory, checking each CRC. */
function readZip(bytes: Uint8Array): Record<string, string> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = bytes.length - 22;
	expect(view.getUint32(end, true)).toBe(0x06054b50);
	const entries = view.getUint16(end + 10, true);
	let at = view.getUint32(end + 16, true);
	const files: Record<string, string> = {};
	for (let i = 0; i < entries; i++) {
		expect(view.getUint32(at, true)).toBe(0x02014b50);
		const crc = view.getUint32(at + 16, true);
		const size = view.getUint32(at + 20, true);
		const nameLength = view.getUint16(at + 28, true);
		const offset = view.getUint32(at + 42, true);
		const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
		const localName = view.getUint16(offset + 26, true);
		const data = bytes.subarray(offset + 30 + localName, offset + 30 + localName + size);
		expect(crc32(data)).toBe(crc);
		files[name] = new TextDecoder().decode(data);
		at += 46 + nameLength;
	}
	return files;
}

describe('zipStore', () => {
	it('writes an archive whose directory finds every file with its exact content', () => {
		const zip = zipStore([
			{ name: 'a.csv', content: 'unit,rater,value\r\n1,primary,correct\r\n' },
			{ name: 'tables/é.json', content: '{"κ": 0.25}' },
			{ name: 'empty.txt', content: '' }
		]);
		expect(readZip(zip)).toEqual({
			'a.csv': 'unit,rater,value\r\n1,primary,correct\r\n',
			'tables/é.json': '{"κ": 0.25}',
			'empty.txt': ''
		});
	});
});
