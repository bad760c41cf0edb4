// Bytes in chunks to lines: UTF-8 decoded as a stream, so that a character or a line split across two chunks
// comes out whole. Only the unfinished last line is held between chunks.

export interface LineSink {
  write(chunk: Uint8Array): void;
  end(): void;
}

/**
 * Bytes are decoded this many at a time: TextDecoder's streaming decode of a whole 25 MiB body in one call was 40 % of
 * a MOT import's CPU time, and of 64 KiB pieces a twentieth of that.
 */
const DECODE_BYTES = 64 * 1024;

/** Calls `onLine(text, lineNumber)` for every line (1-based), without its "\r\n" or "\n"; a leading BOM is dropped. */
export function lineSplitter(onLine: (line: string, lineNumber: number) => void): LineSink {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  let lineNumber = 0;
  let first = true;
  const take = (text: string, final: boolean) => {
    let s = rest + text;
    if (first && s.length > 0) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      first = false;
    }
    let start = 0;
    for (let nl = s.indexOf('\n'); nl !== -1; nl = s.indexOf('\n', start)) {
      const end = nl > start && s.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(s.slice(start, end), ++lineNumber);
      start = nl + 1;
    }
    rest = s.slice(start);
    if (final && rest !== '') {
      onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest, ++lineNumber);
      rest = '';
    }
  };
  return {
    write(chunk) {
      for (let at = 0; at < chunk.length; at += DECODE_BYTES)
        take(decoder.decode(chunk.subarray(at, at + DECODE_BYTES), { stream: true }), false);
    },
    end: () => take(decoder.decode(), true),
  };
}

/**
 * The fields of one CSV record as Python's csv module writes them: quoted fields may hold commas, doubled quotes
 * and line breaks. Undefined when a quoted field is still open at the end of `text` (the record goes on).
 */
export function csvFields(text: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === 34) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) return undefined;
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      // Anything between the closing quote and the comma is kept, as Python's reader does.
      const comma = text.indexOf(',', j);
      fields.push(value + text.slice(j, comma === -1 ? text.length : comma));
      if (comma === -1) return fields;
      i = comma + 1;
    } else {
      const comma = text.indexOf(',', i);
      fields.push(text.slice(i, comma === -1 ? text.length : comma));
      if (comma === -1) return fields;
      i = comma + 1;
    }
  }
}

/** A CSV field quoted only when it must be (Python's QUOTE_MINIMAL). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Calls `onLine(bytes, start, end, lineNumber)` for every line as bytes (without "\r\n" or "\n"; a leading UTF-8
 * BOM is dropped), for readers that parse numbers from bytes without decoding text first. `bytes` is valid only
 * during the call. A line split across chunks is joined; only the unfinished last line is held between chunks.
 */
export function byteLineSplitter(
  onLine: (bytes: Buffer, start: number, end: number, lineNumber: number) => void,
): LineSink {
  let rest: Buffer | undefined;
  let lineNumber = 0;
  const emit = (bytes: Buffer, start: number, nl: number) => {
    let from = start;
    if (lineNumber === 0 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) from += 3;
    const end = nl > from && bytes[nl - 1] === 13 ? nl - 1 : nl;
    onLine(bytes, from, end, ++lineNumber);
  };
  return {
    write(chunk) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let start = 0;
      if (rest !== undefined) {
        const nl = bytes.indexOf(10);
        if (nl === -1) {
          rest = Buffer.concat([rest, bytes]);
          return;
        }
        const line = Buffer.concat([rest, bytes.subarray(0, nl)]);
        rest = undefined;
        emit(line, 0, line.length);
        start = nl + 1;
      }
      for (let nl = bytes.indexOf(10, start); nl !== -1; nl = bytes.indexOf(10, start)) {
        emit(bytes, start, nl);
        start = nl + 1;
      }
      // A copy: the caller may reuse its chunk.
      if (start < bytes.length) rest = Buffer.from(bytes.subarray(start));
    },
    end() {
      if (rest !== undefined && rest.length > 0) emit(rest, 0, rest.length);
      rest = undefined;
    },
  };
}
