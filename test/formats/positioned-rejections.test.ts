// The import's compact rejection list reads back, sorts and writes its JSON as the array of objects it replaces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionedRejectionList, type PositionedRejection } from '../../src/formats/positioned-rejections.js';
import type { Position } from '../../src/formats/types.js';

const reasons = ['row_malformed', 'box_invalid_frame', 'box_missing_geometry', 'box_out_of_frame'];
const entryNames = ['labels/v_2.txt', 'labels/v_10.txt', 'labels/v_1.txt'];
const positions: Record<string, fc.Arbitrary<Position>> = {
  line: fc.integer({ min: 1, max: 50 }).map((line) => ({ line })),
  index: fc.integer({ min: 0, max: 50 }).map((index) => ({ index })),
  element: fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }))
    .map(([t, b]) => ({ element: `track[${t}]/box[${b}]` })),
  entry: fc
    .tuple(fc.constantFrom(...entryNames), fc.integer({ min: 0, max: 12 }))
    .map(([name, line]) => ({ entry: `${name}:${line}` })),
};
const rejectionOf = (position: fc.Arbitrary<Position>) =>
  fc.record({
    trackId: fc.oneof(fc.constant(null), fc.constantFrom('1', '2'), fc.string({ unit: 'binary', maxLength: 6 })),
    frame: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 1000 })),
    reason: fc.constantFrom(...reasons),
    detail: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    position,
  });

/** Where a rejection is in the file, as a person orders them: numbers as numbers, entry names numerically. */
const key = (p: Position): [number, number, number] =>
  'line' in p
    ? [p.line, 0, 0]
    : 'index' in p
      ? [p.index, 0, 0]
      : 'element' in p
        ? (p.element.match(/\d+/g)!.map(Number).concat(0) as [number, number, number])
        : [
            [1, 2, 0][entryNames.indexOf(p.entry.slice(0, p.entry.lastIndexOf(':')))]!,
            Number(p.entry.split(':')[1]),
            0,
          ];

describe('PositionedRejectionList', () => {
  for (const [kind, position] of Object.entries(positions)) {
    it(`${kind}: reads back in file order (stable), and its JSON is that of the array`, () => {
      fc.assert(
        fc.property(fc.array(rejectionOf(position), { maxLength: 40 }), (entries) => {
          const list = new PositionedRejectionList();
          for (const e of entries) list.push(e.trackId, e.frame, e.reason, e.position, e.detail);
          list.sortByPosition();
          const expected: PositionedRejection[] = entries
            .map((e, i) => ({ e, i }))
            .sort((a, b) => {
              const [x, y] = [key(a.e.position), key(b.e.position)];
              return x[0] - y[0] || x[1] - y[1] || a.i - b.i;
            })
            .map(({ e }) => ({
              trackId: e.trackId,
              frame: e.frame,
              reason: e.reason,
              ...(e.detail !== undefined ? { detail: e.detail } : {}),
              ...e.position,
            }));
          expect(list.toJSON()).toEqual(expected);
          expect([...list.jsonChunks()].join('')).toBe(JSON.stringify(expected));
          expect(JSON.stringify(list)).toBe(JSON.stringify(expected));
        }),
      );
    });
  }

  it('a long list streams in pieces and keeps each text once', () => {
    const list = new PositionedRejectionList();
    for (let i = 0; i < 30_000; i++)
      list.push(null, null, 'row_malformed', { line: i + 1 }, '1 columns; MOT rows have 6');
    expect(list.streams).toBe(true);
    const pieces = [...list.jsonChunks()];
    expect(pieces.length).toBeGreaterThan(10);
    const parsed = JSON.parse(pieces.join(''));
    expect(parsed).toHaveLength(30_000);
    expect(parsed[29_999]).toEqual({
      trackId: null,
      frame: null,
      reason: 'row_malformed',
      detail: '1 columns; MOT rows have 6',
      line: 30_000,
    });
  });
});
