// The compact list of rejected boxes reads back, and writes its JSON, exactly as the array of objects it replaces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RejectionList, type RejectionReason } from '../../src/detections/rejection-list.js';
import { jsonStream } from '../../src/http/json-chunks.js';

const reasons: RejectionReason[] = [
  'box_invalid_frame',
  'box_missing_geometry',
  'box_non_positive_dimensions',
  'box_out_of_frame',
];
const rejection = fc.record({
  trackId: fc.oneof(fc.constantFrom('t1', 't2'), fc.string({ unit: 'binary' })),
  frame: fc.oneof(fc.constant(null), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(-0, -1e20, 2 ** 53, 1e300)),
  reason: fc.constantFrom(...reasons),
});

function listOf(entries: Array<{ trackId: string; frame: number | null; reason: RejectionReason }>) {
  const list = new RejectionList();
  for (const e of entries) list.push(e.trackId, e.frame, e.reason);
  return list;
}

async function text(stream: NodeJS.ReadableStream) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

describe('RejectionList', () => {
  it('reads back what was pushed, in order, and writes the JSON that JSON.stringify writes of that array', () => {
    fc.assert(
      fc.property(fc.array(rejection, { maxLength: 60 }), (entries) => {
        const list = listOf(entries);
        const expected = entries.map((e) => ({ ...e, frame: e.frame === null ? null : e.frame }));
        expect(list.length).toBe(entries.length);
        expect(list.toJSON()).toEqual(expected);
        expect(JSON.stringify(list)).toBe(JSON.stringify(expected));
        expect([...list.jsonChunks()].join('')).toBe(JSON.stringify(expected));
      }),
    );
  });

  it('writes a long list in pieces of about 64 KiB whose text is that of JSON.stringify', async () => {
    const entries = Array.from({ length: 30_000 }, (_, i) => ({
      trackId: `track "${i % 7}" \u00e9`,
      frame: i % 5 === 0 ? null : i,
      reason: reasons[i % 4]!,
    }));
    const list = listOf(entries);
    expect(list.streams).toBe(true);
    const pieces = [...list.jsonChunks()];
    expect(pieces.length).toBeGreaterThan(10);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeLessThan(65_536 + 200);
    expect(pieces.join('')).toBe(JSON.stringify(entries));
    const answer = {
      runId: 'r',
      tracksStored: 1,
      boxesStored: 2,
      rejected: list,
      warnings: [{ code: 'w', count: 1, message: 'm' }],
    };
    expect(await text(jsonStream(answer))).toBe(JSON.stringify(answer));
  });

  it('streams only from 10 000 entries', () => {
    expect(
      listOf(Array.from({ length: 9_999 }, () => ({ trackId: 'a', frame: 1, reason: 'box_out_of_frame' as const })))
        .streams,
    ).toBe(false);
    expect(
      listOf(Array.from({ length: 10_000 }, () => ({ trackId: 'a', frame: 1, reason: 'box_out_of_frame' as const })))
        .streams,
    ).toBe(true);
  });
});
