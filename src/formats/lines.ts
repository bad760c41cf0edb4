// Bytes in chunks to lines: UTF-8 decoded as a stream, so that a character or a line split across two chunks
// comes out whole. Only the unfinished last line is held between chunks.

export interface LineSink {
  write(chunk: Uint8Array): void;
  end(): void;
}

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
    write: (chunk) => take(decoder.decode(chunk, { stream: true }), false),
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
