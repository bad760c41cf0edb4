// An object written as a stream, piece by piece, is the text JSON.stringify writes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStream } from '../../src/http/json-chunks.js';

async function text(stream: NodeJS.ReadableStream) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

describe('jsonStream', () => {
  it('writes any plain object as JSON.stringify does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (value) => {
        expect(await text(jsonStream(value))).toBe(JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });
});
