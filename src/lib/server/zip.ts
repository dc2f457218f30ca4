import { crc32 } from 'node:zlib';

/**
 * A zip archive of the given files, stored without compression: exports are small text files, and
 * a stored archive needs no dependency (local headers, central directory, end record; no zip64, so
 * each file and the archive must stay under 4 GiB).
 */
export function zipStore(files: { name: string; content: string | Uint8Array }[]): Uint8Array {
	const encoder = new TextEncoder();
	const parts: Uint8Array[] = [];
	const central: Uint8Array[] = [];
	let offset = 0;
	// 1980-01-01 00:00 in MS-DOS format: fixed, so the same inputs give the same bytes.
	const dosTime = 0;
	const dosDate = (0 << 9) | (1 << 5) | 1;
	for (const file of files) {
		const name = encoder.encode(file.name);
		const data = typeof file.content === 'string' ? encoder.encode(file.content) : file.content;
		const crc = crc32(data);
		const local = new DataView(new ArrayBuffer(30));
		local.setUint32(0, 0x04034b50, true);
		local.setUint16(4, 20, true); // version needed
		local.setUint16(6, 0x0800, true); // UTF-8 names
		local.setUint16(8, 0, true); // stored
		local.setUint16(10, dosTime, true);
		local.setUint16(12, dosDate, true);
		local.setUint32(14, crc, true);
		local.setUint32(18, data.length, true);
		local.setUint32(22, data.length, true);
		local.setUint16(26, name.length, true);
		local.setUint16(28, 0, true);
		const entry = new DataView(new ArrayBuffer(46));
		entry.setUint32(0, 0x02014b50, true);
		entry.setUint16(4, 20, true);
		entry.setUint16(6, 20, true);
		entry.setUint16(8, 0x0800, true);
		entry.setUint16(10, 0, true);
		entry.setUint16(12, dosTime, true);
		entry.setUint16(14, dosDate, true);
		entry.setUint32(16, crc, true);
		entry.setUint32(20, data.length, true);
		entry.setUint32(24, data.length, true);
		entry.setUint16(28, name.length, true);
		entry.setUint32(42, offset, true);
		parts.push(new Uint8Array(local.buffer), name, data);
		central.push(new Uint8Array(entry.buffer), name);
		offset += 30 + name.length + data.length;
	}
	const centralSize = central.reduce((s, p) => s + p.length, 0);
	const end = new DataView(new ArrayBuffer(22));
	end.setUint32(0, 0x06054b50, true);
	end.setUint16(8, files.length, true);
	end.setUint16(10, files.length, true);
	end.setUint32(12, centralSize, true);
	end.setUint32(16, offset, true);
	const all = [...parts, ...central, new Uint8Array(end.buffer)];
	const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
	let at = 0;
	for (const p of all) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
