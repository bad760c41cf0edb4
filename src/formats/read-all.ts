// Feeding a reader: from bytes in memory, or from chunks as they arrive (a request body, a file stream).
import type { FormatReader, ReadResult } from './types.js';

export async function readChunks(
  reader: FormatReader,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<ReadResult> {
  for await (const chunk of chunks) reader.write(chunk);
  return reader.end();
}

export function readBytes(reader: FormatReader, bytes: Uint8Array): ReadResult {
  reader.write(bytes);
  return reader.end();
}

/** A writer's pieces as one buffer (tests, small exports). */
export function collect(pieces: Iterable<string | Uint8Array>): Buffer {
  const parts: Buffer[] = [];
  for (const p of pieces) parts.push(typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p));
  return Buffer.concat(parts);
}
