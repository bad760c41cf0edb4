import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteLineSplitter, csvField, csvFields, lineSplitter } from '../../src/formats/lines.js';

function splitAll(bytes: Uint8Array, cuts: number[], asBytes = false): [string, number][] {
  const lines: [string, number][] = [];
  const sink = asBytes
    ? byteLineSplitter((b, start, end, n) => lines.push([b.toString('utf8', start, end), n]))
    : lineSplitter((line, n) => lines.push([line, n]));
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    sink.write(bytes.subarray(at, cut));
    at = cut;
  }
  sink.write(bytes.subarray(at));
  sink.end();
  return lines;
}

describe('lineSplitter', () => {
  it('gives the same lines wherever the chunks are cut (CRLF, multi-byte characters, a last line without newline)', () => {
    const text = '\uFEFFé,1\r\nzwei 🚗\n\r\nlast';
    const bytes = new TextEncoder().encode(text);
    const expected: [string, number][] = [
      ['é,1', 1],
      ['zwei 🚗', 2],
      ['', 3],
      ['last', 4],
    ];
    expect(splitAll(bytes, [])).toEqual(expected);
    expect(splitAll(bytes, [], true)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 8 }), (cuts) => {
        expect(splitAll(bytes, cuts)).toEqual(expected);
        expect(splitAll(bytes, cuts, true)).toEqual(expected);
      }),
    );
  });
});

describe('csv fields', () => {
  it('reads quoted fields as Python writes them, and writes them back', () => {
    expect(csvFields('a,"b, c","say ""hi""",')).toEqual(['a', 'b, c', 'say "hi"', '']);
    expect(csvFields('"open')).toBeUndefined();
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (fields) => {
        expect(csvFields(fields.map(csvField).join(','))).toEqual(fields);
      }),
    );
  });
});
