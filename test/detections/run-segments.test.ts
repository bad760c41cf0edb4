// A run's tracks in segments (detections/run-segments.ts) and their joined stored form (run-codec.ts "SLB3"): any
// sequence of patches, each reading and writing only the segments it touches, leaves the same run as the same
// edits applied to the whole run in memory.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBoxes, encodeBoxes, joinBoxes } from '../../src/detections/run-codec.js';
import {
  applyReverseDelta,
  reverseDelta,
  runOf,
  spliceTracks,
  tracksOf,
  type TrackSlice,
} from '../../src/detections/run-delta.js';
import {
  joinTrackHeaders,
  patchSegments,
  type SegmentHeaders,
  type SegmentLimits,
  segmentsToRead,
  splitTracks,
  tracksOfSegments,
  UNREAD,
} from '../../src/detections/run-segments.js';
import { BOX_STRIDE } from '../../src/detections/run-types.js';

const slice = (id: string, seed: number, n = 1 + (seed % 4)): TrackSlice => ({
  header: { id, n, ...(seed % 2 ? { label: `l${seed % 3}` } : {}) },
  columns: Float64Array.from({ length: n * BOX_STRIDE }, (_, i) => (i % BOX_STRIDE === 6 ? NaN : seed + i / 8)),
});
const plain = (tracks: TrackSlice[]) => tracks.map((t) => ({ header: t.header, columns: [...t.columns] }));
const SMALL: SegmentLimits = { boxes: 6, tracks: 3 };

/** Segments as stored: number → tracks. */
type Stored = Map<number, TrackSlice[]>;
const headersOf = (stored: Stored): SegmentHeaders[] =>
  [...stored.keys()]
    .sort((a, b) => a - b)
    .map((segment) => ({ segment, headers: stored.get(segment)!.map((t) => t.header) }));
const contentOf = (stored: Stored) => headersOf(stored).flatMap((s) => stored.get(s.segment)!);

interface Patch {
  upsert: TrackSlice[];
  deletes: string[];
}

/** One patch as PATCH applies it to a run in segments; returns the tracks before and after, as it saw them. */
function applyToSegments(stored: Stored, patch: Patch, limits: SegmentLimits) {
  const segments = headersOf(stored);
  const needed = segmentsToRead(
    segments,
    patch.upsert.map((t) => t.header.id),
    patch.deletes,
  );
  const read = new Map(needed.map((s) => [s, stored.get(s)!]));
  const current = tracksOfSegments(segments, read);
  const next = spliceTracks(current, patch.upsert, new Set(patch.deletes));
  const changed = new Set([...patch.upsert.map((t) => t.header.id), ...patch.deletes]);
  const delta = reverseDelta(current, next, changed);
  expect(delta.tracks.every((t) => t.columns !== UNREAD)).toBe(true);
  const { write, drop } = patchSegments(segments, next, changed, limits);
  // Only the segments read are rewritten or dropped; new segments come after the last.
  const last = segments.at(-1)!.segment;
  for (const s of [...write.map((w) => w.segment), ...drop]) expect(needed.includes(s) || s > last).toBe(true);
  for (const s of drop) stored.delete(s);
  for (const w of write) {
    expect(w.tracks.length).toBeGreaterThan(0);
    stored.set(w.segment, w.tracks);
  }
  return { delta, next };
}

const patchArb = (ids: number) =>
  fc.record({
    upsert: fc
      .uniqueArray(fc.tuple(fc.integer({ min: 0, max: ids }), fc.integer({ min: 0, max: 9 })), {
        selector: ([id]) => id,
        maxLength: 4,
      })
      .map((pairs) => pairs.map(([id, seed]) => slice(`t${id}`, seed))),
    deletes: fc.uniqueArray(fc.integer({ min: 0, max: ids }), { maxLength: 4 }).map((d) => d.map((i) => `t${i}`)),
  });

describe('run segments', () => {
  it('any sequence of patches then a read gives the same run as the edits applied in memory', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 14 }),
        fc.array(patchArb(20), { maxLength: 8 }),
        fc.constantFrom<SegmentLimits>(SMALL, { boxes: 1, tracks: 1 }, { boxes: 40, tracks: 5 }),
        (initial, patches, limits) => {
          let model = Array.from({ length: initial }, (_, i) => slice(`t${i}`, i));
          const stored: Stored = new Map(splitTracks(model, 0, limits).map((w) => [w.segment, w.tracks]));
          for (const raw of patches) {
            const existing = new Set(model.map((t) => t.header.id));
            const upsertIds = new Set(raw.upsert.map((t) => t.header.id));
            // As PATCH refuses them: unknown ids to delete, ids both upserted and deleted, an emptied run.
            const deletes = raw.deletes.filter((id) => existing.has(id) && !upsertIds.has(id));
            const after = spliceTracks(model, raw.upsert, new Set(deletes));
            if (after.length === 0 || (raw.upsert.length === 0 && deletes.length === 0)) continue;
            const { delta } = applyToSegments(stored, { upsert: raw.upsert, deletes }, limits);
            // The delta rebuilds the content before the patch.
            expect(plain(applyReverseDelta(after, delta))).toEqual(plain(model));
            model = after;
            expect(plain(contentOf(stored))).toEqual(plain(model));
          }
          // Read back as a reader does: the segments' stored bytes joined, in either format.
          const rows = headersOf(stored).map((s, i) => {
            const run = runOf(stored.get(s.segment)!);
            return { tracks: JSON.stringify(run.headers), boxes: encodeBoxes(run, i % 2 ? 'columns' : 'doubles') };
          });
          const headers = JSON.parse(joinTrackHeaders(rows.map((r) => r.tracks)));
          const columns = decodeBoxes(joinBoxes(rows.map((r) => r.boxes)));
          expect(plain(tracksOf({ headers, columns, count: 0 }))).toEqual(plain(model));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a run at the box or track limit, a long track in a segment of its own', () => {
    const tracks = [slice('a', 1, 2), slice('b', 1, 2), slice('c', 1, 9), slice('d', 1, 1), slice('e', 1, 1)];
    const split = splitTracks(tracks, 0, SMALL).map((w) => w.tracks.map((t) => t.header.id));
    expect(split).toEqual([['a', 'b'], ['c'], ['d', 'e']]);
    expect(splitTracks(tracks, 0, { boxes: 100, tracks: 2 }).map((w) => w.segment)).toEqual([0, 1, 2]);
  });

  it('a patch touching tracks in two segments reads and rewrites those two only', () => {
    const stored: Stored = new Map(
      splitTracks(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => slice(id, i * 2, 2)),
        0,
        SMALL,
      ).map((w) => [w.segment, w.tracks]),
    );
    expect(headersOf(stored).map((s) => s.headers.map((h) => h.id))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    const segments = headersOf(stored);
    expect(segmentsToRead(segments, ['b', 'e'], [])).toEqual([0, 1]);
    expect(segmentsToRead(segments, ['e'], [])).toEqual([1]);
    // A new track: the last segment, which it joins while there is room.
    expect(segmentsToRead(segments, ['new'], [])).toEqual([1]);
    applyToSegments(stored, { upsert: [slice('b', 7, 1), slice('e', 7, 1)], deletes: [] }, SMALL);
    expect(contentOf(stored).map((t) => [t.header.id, t.header.n])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 2],
      ['d', 2],
      ['e', 1],
      ['f', 2],
    ]);
  });

  it('a delete that empties a segment drops it; the others keep their numbers', () => {
    const stored: Stored = new Map(
      splitTracks(
        ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => slice(id, 0, 2)),
        0,
        SMALL,
      ).map((w) => [w.segment, w.tracks]),
    );
    expect([...stored.keys()]).toEqual([0, 1, 2]);
    applyToSegments(stored, { upsert: [], deletes: ['d', 'e', 'f'] }, SMALL);
    expect([...stored.keys()].sort()).toEqual([0, 2]);
    expect(contentOf(stored).map((t) => t.header.id)).toEqual(['a', 'b', 'c', 'g']);
    // New tracks fill the last segment, then open new ones after it.
    applyToSegments(stored, { upsert: ['h', 'i', 'j', 'k'].map((id) => slice(id, 0, 2)), deletes: [] }, SMALL);
    expect(headersOf(stored).map((s) => [s.segment, s.headers.map((h) => h.id)])).toEqual([
      [0, ['a', 'b', 'c']],
      [2, ['g', 'h', 'i']],
      [3, ['j', 'k']],
    ]);
  });

  it('refuses to write a segment holding a track whose boxes were not read', () => {
    const stored: Stored = new Map(
      splitTracks(
        ['a', 'b', 'c', 'd'].map((id) => slice(id, 0, 2)),
        0,
        SMALL,
      ).map((w) => [w.segment, w.tracks]),
    );
    const segments = headersOf(stored);
    const current = tracksOfSegments(segments, new Map()); // nothing read
    const next = spliceTracks(current, [slice('b', 3)], new Set());
    expect(() => patchSegments(segments, next, new Set(['b']), SMALL)).toThrow(/without the boxes/);
  });

  it('joins header arrays and boxes of segments in order; an empty part adds nothing', () => {
    expect(joinTrackHeaders(['[{"id":"a","n":1}]', '[]', ' [ {"id":"b","n":2} ] '])).toBe(
      '[{"id":"a","n":1},{"id":"b","n":2}]',
    );
    const a = runOf([slice('a', 1, 3)]);
    const b = runOf([slice('b', 2, 2)]);
    const joined = decodeBoxes(joinBoxes([encodeBoxes(a, 'columns'), encodeBoxes(b, 'doubles')]));
    expect([...joined]).toEqual([...a.columns, ...b.columns]);
  });
});
