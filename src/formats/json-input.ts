// The JSON formats (COCO, the run JSON) are one value: their bytes are kept as they arrive and parsed once at the end.
import { invalidFile } from './format-error.js';

export class ByteCollector {
  private readonly chunks: Uint8Array[] = [];
  length = 0;

  write(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

/** JSON.parse, with a file that is not JSON as invalid_file at the line of the first problem. */
export function parseJsonFile(bytes: Buffer): unknown {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw invalidFile('The file is empty', { line: 1 });
  try {
    return JSON.parse(text);
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message);
    const offset = at ? Number(at[1]) : text.length;
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    throw invalidFile(`Not JSON: ${(err as Error).message}`, { line });
  }
}
