// A zip's entries, read from its central directory and inflated with fflate, refusing what could hurt the reader:
// names outside the archive's root, symbolic links, encryption, too many entries, and more decoded bytes than the
// limit (counted while inflating, so a zip that lies about its sizes is stopped too).
import { Inflate } from 'fflate';
import { MAX_BODY_BYTES } from '../detections/limits.js';
import { FormatError, invalidFile } from './format-error.js';

/** More entries than a run has frames (5000 tracks × 100 000 boxes aside, an hour at 60 fps is 216 000). */
export const MAX_ZIP_ENTRIES = 250_000;

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipLimits {
  maxDecodedBytes?: number;
  maxEntries?: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const UNIX = 3;

/** A name that stays inside the archive: relative, without "..", without a drive or a backslash root. */
export function safeEntryName(name: string): boolean {
  const n = name.replaceAll('\\', '/');
  if (n === '' || n.startsWith('/') || /^[A-Za-z]:/.test(n) || n.includes('\0')) return false;
  return !n.split('/').some((part) => part === '..');
}

/** The file entries (directories left out) in central-directory order, each inflated. Throws FormatError. */
export function readZip(zip: Uint8Array, limits: ZipLimits = {}): ZipEntry[] {
  const maxBytes = limits.maxDecodedBytes ?? MAX_BODY_BYTES;
  const maxEntries = limits.maxEntries ?? MAX_ZIP_ENTRIES;
  if (zip.length === 0) throw invalidFile('The file is empty', { entry: '' });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw invalidFile('Not a zip: no end of central directory record', { entry: '' });
  const count = view.getUint16(end + 10, true);
  const cdOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff) throw invalidFile('ZIP64 archives are not read', { entry: '' });
  if (count > maxEntries)
    throw invalidFile(`The zip has ${count} entries; at most ${maxEntries} are read`, { entry: '' });
  const entries: ZipEntry[] = [];
  let total = 0;
  let p = cdOffset;
  const names = new TextDecoder('utf-8');
  for (let k = 0; k < count; k++) {
    if (p + 46 > zip.length || view.getUint32(p, true) !== CENTRAL) {
      throw invalidFile('Not a zip: the central directory is damaged', { entry: '' });
    }
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const compressed = view.getUint32(p + 20, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    const local = view.getUint32(p + 42, true);
    const name = names.decode(zip.subarray(p + 46, p + 46 + nameLength));
    p += 46 + nameLength + extraLength + commentLength;
    const at = { entry: name };
    if (!safeEntryName(name)) throw invalidFile(`The entry "${name}" points outside the archive`, at);
    const type = madeBy === UNIX ? (external >>> 16) & S_IFMT : 0;
    if (type === S_IFLNK) throw invalidFile(`The entry "${name}" is a symbolic link`, at);
    // Devices, FIFOs and sockets are no label files either; a mode of 0 is what many zip tools write for a file.
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw invalidFile(`The entry "${name}" is not a file`, at);
    if (flags & 1) throw invalidFile(`The entry "${name}" is encrypted`, at);
    if (name.endsWith('/')) continue;
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL) {
      throw invalidFile(`Not a zip: the entry "${name}" has no local header`, at);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = zip.subarray(start, start + compressed);
    if (raw.length < compressed) throw invalidFile(`The entry "${name}" is truncated`, at);
    const tooLarge = () =>
      new FormatError(
        'payload_too_large',
        `The zip inflates to more than ${maxBytes} bytes (the limit applies to the decoded files)`,
        at,
      );
    let data: Uint8Array;
    if (method === 0) {
      total += raw.length;
      if (total > maxBytes) throw tooLarge();
      data = raw;
    } else if (method === 8) {
      const parts: Uint8Array[] = [];
      let size = 0;
      const inflate = new Inflate((chunk) => {
        size += chunk.length;
        // Thrown inside fflate's callback: inflating stops here, before the next block is decoded.
        if (total + size > maxBytes) throw tooLarge();
        parts.push(chunk);
      });
      try {
        // Fed in slices so that a bomb is stopped after a slice's worth of output, not the whole entry's.
        for (let o = 0; o < raw.length; o += 16_384)
          inflate.push(raw.subarray(o, o + 16_384), o + 16_384 >= raw.length);
        if (raw.length === 0) inflate.push(new Uint8Array(0), true);
      } catch (err) {
        if (err instanceof FormatError) throw err;
        throw invalidFile(`The entry "${name}" does not inflate: ${(err as Error).message}`, at);
      }
      total += size;
      data = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    } else {
      throw invalidFile(`The entry "${name}" uses compression method ${method}; only stored and deflate are read`, at);
    }
    entries.push({ name, data });
  }
  return entries;
}
