import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

export type UnpackedSize = 'fits' | 'too_large' | 'unreadable';

/**
 * Whether a zip (a DOCX) unpacks to at most `maxBytes`, found by inflating each entry with the
 * budget left as the output limit: inflation stops as soon as the budget is spent, so a file that
 * unpacks to gigabytes costs no more than `maxBytes` of memory to refuse. The sizes the archive
 * declares are not trusted. Zip64 archives are not read (a document never needs one).
 */
export function unpackedSizeWithin(zip: Uint8Array, maxBytes: number): UnpackedSize {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = endOfDirectory(buf);
  if (end < 0) return 'unreadable';
  const entries = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  let budget = maxBytes;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== DIRECTORY_ENTRY) return 'unreadable';
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const local = buf.readUInt32LE(at + 42);
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (compressedSize === ZIP64_MARK || local === ZIP64_MARK) return 'unreadable';
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL_HEADER) return 'unreadable';
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressedSize > buf.length) return 'unreadable';
    const data = buf.subarray(start, start + compressedSize);
    if (method === 0) budget -= data.length;
    else if (method === 8) {
      try {
        budget -= inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
      } catch (e) {
        return (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'unreadable';
      }
    } else return 'unreadable';
    if (budget < 0) return 'too_large';
  }
  return 'fits';
}

/** Offset of the end-of-central-directory record, searched back over a comment of up to 64 KB; -1 when absent. */
function endOfDirectory(buf: Buffer): number {
  for (let i = buf.length - 22; i >= 0 && i >= buf.length - 22 - 0xffff; i--) {
    if (buf.readUInt32LE(i) === END_OF_DIRECTORY) return i;
  }
  return -1;
}
