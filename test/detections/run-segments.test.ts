// A run's tracks in segments (detections/run-segments.ts) and their joined stored form (run-codec.ts "SLB3"): any
// sequence of patches, each reading and writing only the segments it touches, leaves the same run as the same
// edits applied to the whole run in memory.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBoxes, encodeBoxes, joinBoxes } from '../../src/detections/run-codec.js';
import { applyReverseDelta, runOf, spliceTracks, tracksOf, type TrackSlice } from '../../src/detections/run-delta.js';
import {
  joinTrackHeaders,
  patchSegments,
  type SegmentCount,
  type SegmentLimits,
  segmentsToRead,
  splitTracks,
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
const countsOf = (stored: Stored): SegmentCount[] =>
  [...stored.keys()].sort((a, b) => a - b).map((segment) => ({ segment, tracks: stored.get(segment)!.length }));
const idsOf = (stored: Stored) =>
  countsOf(stored).map((s) => [s.segment, stored.get(s.segment)!.map((t) => t.header.id)]);
const contentOf = (stored: Stored) => countsOf(stored).flatMap((s) => stored.get(s.segment)!);
/** The track index as run_track_segments holds it: id → segment. */
const indexOf = (stored: Stored) =>
  new Map([...stored].flatMap(([segment, tracks]) => tracks.map((t) => [t.header.id, segment] as const)));

interface Patch {
  upsert: TrackSlice[];
  deletes: string[];
}

/**
 * One patch as PATCH applies it to a run in segments: the index locates its ids, only the segments named are read,
 * and the index follows the change. Returns the delta.
 */
function applyToSegments(stored: Stored, index: Map<string, number>, patch: Patch, limits: SegmentLimits) {
  const segments = countsOf(stored);
  const ids = [...patch.upsert.map((t) => t.header.id), ...patch.deletes];
  const located = new Map(ids.filter((id) => index.has(id)).map((id) => [id, index.get(id)!]));
  const needed = segmentsToRead(segments, located, ids);
  const read = new Map(needed.map((s) => [s, stored.get(s)!]));
  const patched = patchSegments(segments, located, read, patch.upsert, new Set(patch.deletes), limits)!;
  expect(patched).toBeDefined();
  const before = contentOf(stored);
  // Only the segments read are rewritten or dropped; new segments come after the last.
  const last = segments.at(-1)!.segment;
  for (const s of [...patched.write.map((w) => w.segment), ...patched.drop])
    expect(needed.includes(s) || s > last).toBe(true);
  for (const s of patched.drop) stored.delete(s);
  for (const w of patched.write) {
    expect(w.tracks.length).toBeGreaterThan(0);
    stored.set(w.segment, w.tracks);
  }
  for (const id of patched.index.remove) index.delete(id);
  for (const a of patched.index.add) index.set(a.id, a.segment);
  expect(patched.tracks).toBe(contentOf(stored).length);
  const boxes = (tracks: TrackSlice[]) => tracks.reduce((n, t) => n + t.header.n, 0);
  expect(patched.boxDifference).toBe(boxes(contentOf(stored)) - boxes(before));
  return { delta: patched.delta };
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
          const index = indexOf(stored);
          for (const raw of patches) {
            const existing = new Set(model.map((t) => t.header.id));
            const upsertIds = new Set(raw.upsert.map((t) => t.header.id));
            // As PATCH refuses them: unknown ids to delete, ids both upserted and deleted, an emptied run.
            const deletes = raw.deletes.filter((id) => existing.has(id) && !upsertIds.has(id));
            const after = spliceTracks(model, raw.upsert, new Set(deletes));
            if (after.length === 0 || (raw.upsert.length === 0 && deletes.length === 0)) continue;
            const { delta } = applyToSegments(stored, index, { upsert: raw.upsert, deletes }, limits);
            // The delta rebuilds the content before the patch.
            expect(plain(applyReverseDelta(after, delta))).toEqual(plain(model));
            model = after;
            expect(plain(contentOf(stored))).toEqual(plain(model));
            // The index kept beside the segments is the one they would give.
            expect(index).toEqual(indexOf(stored));
          }
          // Read back as a reader does: the segments' stored bytes joined, in either format.
          const rows = countsOf(stored).map((s, i) => {
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
    expect(idsOf(stored)).toEqual([
      [0, ['a', 'b', 'c']],
      [1, ['d', 'e', 'f']],
    ]);
    const segments = countsOf(stored);
    const index = indexOf(stored);
    expect(segmentsToRead(segments, index, ['b', 'e'])).toEqual([0, 1]);
    expect(segmentsToRead(segments, index, ['e'])).toEqual([1]);
    // A new track: the last segment, which it joins while there is room.
    expect(segmentsToRead(segments, index, ['new'])).toEqual([1]);
    expect(segmentsToRead(segments, index, ['a', 'new'])).toEqual([0, 1]);
    const { delta } = applyToSegments(
      stored,
      index,
      { upsert: [slice('b', 7, 1), slice('e', 7, 1)], deletes: [] },
      SMALL,
    );
    // Positions in the whole run: segment 1's tracks come after segment 0's three.
    expect(delta.positions).toEqual([1, 4]);
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
    const index = indexOf(stored);
    applyToSegments(stored, index, { upsert: [], deletes: ['d', 'e', 'f'] }, SMALL);
    expect([...stored.keys()].sort()).toEqual([0, 2]);
    expect(contentOf(stored).map((t) => t.header.id)).toEqual(['a', 'b', 'c', 'g']);
    // New tracks fill the last segment, then open new ones after it.
    applyToSegments(stored, index, { upsert: ['h', 'i', 'j', 'k'].map((id) => slice(id, 0, 2)), deletes: [] }, SMALL);
    expect(idsOf(stored)).toEqual([
      [0, ['a', 'b', 'c']],
      [2, ['g', 'h', 'i']],
      [3, ['j', 'k']],
    ]);
  });

  it('refuses segments read that disagree with the counts or the index (the run changed while it was read)', () => {
    const stored: Stored = new Map(
      splitTracks(
        ['a', 'b', 'c', 'd'].map((id) => slice(id, 0, 2)),
        0,
        SMALL,
      ).map((w) => [w.segment, w.tracks]),
    );
    const segments = countsOf(stored);
    const read = new Map([[1, stored.get(1)!]]);
    const change = (ids: string[]) => ids.map((id) => slice(id, 5));
    expect(patchSegments(segments, new Map([['d', 1]]), read, change(['d']), new Set(), SMALL)).toBeDefined();
    // The index places "b" in segment 1, which does not hold it.
    expect(patchSegments(segments, new Map([['b', 1]]), read, change(['b']), new Set(), SMALL)).toBeUndefined();
    expect(patchSegments(segments, new Map([['b', 1]]), read, [], new Set(['b']), SMALL)).toBeUndefined();
    // Segment 1 holds one track, not the two its count says.
    const counted = segments.map((s) => (s.segment === 1 ? { ...s, tracks: 2 } : s));
    expect(patchSegments(counted, new Map([['d', 1]]), read, change(['d']), new Set(), SMALL)).toBeUndefined();
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
