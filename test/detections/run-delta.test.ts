// The reverse deltas of run revisions (detections/run-delta.ts): any older content is rebuilt exactly from the newer
// one, whatever the two hold, and a patch's delta holds only the tracks it changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyReverseDelta,
  reverseDelta,
  runOf,
  spliceTracks,
  tracksOf,
  type TrackSlice,
} from '../../src/detections/run-delta.js';
import { BOX_STRIDE } from '../../src/detections/run-types.js';

/** A track with `n` boxes whose values come from `seed` (so equal seeds make equal tracks). */
const slice = (id: string, seed: number, n = 1 + (seed % 3), label = seed % 2 ? 'car' : undefined): TrackSlice => ({
  header: { id, n, ...(label ? { label } : {}) },
  columns: Float64Array.from({ length: n * BOX_STRIDE }, (_, i) => (i % BOX_STRIDE === 6 ? NaN : seed + i / 100)),
});

/** A list of tracks with distinct ids from a small alphabet, so that two lists share some. */
const tracksArb = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 })), {
    selector: ([id]) => id,
    maxLength: 10,
  })
  .map((pairs) => pairs.map(([id, seed]) => slice(`t${id}`, seed)));

const plain = (tracks: TrackSlice[]) => tracks.map((t) => ({ header: t.header, columns: [...t.columns] }));

describe('run deltas', () => {
  it('rebuild any older content from any newer one, order and values exactly', () => {
    fc.assert(
      fc.property(tracksArb, tracksArb, (older, newer) => {
        const delta = reverseDelta(older, newer);
        expect(plain(applyReverseDelta(newer, delta))).toEqual(plain(older));
        // Unchanged content costs nothing: a delta against itself is empty.
        expect(reverseDelta(newer, newer)).toEqual({ positions: [], tracks: [], added: [] });
      }),
    );
  });

  it('rebuild a patched run with a delta of the patched tracks only', () => {
    fc.assert(
      fc.property(
        tracksArb,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 4, max: 6 })), { maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 3 }),
        (current, upsertPairs, deleteIds) => {
          const upserts = [...new Map(upsertPairs.map(([id, seed]) => [`t${id}`, slice(`t${id}`, seed)])).values()];
          const deletes = new Set(
            deleteIds.map((id) => `t${id}`).filter((id) => !upserts.some((u) => u.header.id === id)),
          );
          const next = spliceTracks(current, upserts, deletes);
          const changed = new Set([...upserts.map((u) => u.header.id), ...deletes]);
          const delta = reverseDelta(current, next, changed);
          expect(plain(applyReverseDelta(next, delta))).toEqual(plain(current));
          expect(delta.tracks.every((t) => changed.has(t.header.id))).toBe(true);
          // Kept tracks stay where they were; upserts of new ids come last, in the order sent.
          const kept = current.filter((t) => !changed.has(t.header.id)).map((t) => t.header.id);
          expect(next.map((t) => t.header.id).filter((id) => kept.includes(id))).toEqual(kept);
        },
      ),
    );
  });

  it('a moved track is stored as changed, so the order comes back', () => {
    const [a, b, c] = [slice('a', 1), slice('b', 2), slice('c', 3)];
    const delta = reverseDelta([a, b, c], [c, a, b]);
    expect(delta.tracks.map((t) => t.header.id)).toEqual(['c']);
    expect(applyReverseDelta([c, a, b], delta).map((t) => t.header.id)).toEqual(['a', 'b', 'c']);
  });

  it('tracksOf and runOf are inverse', () => {
    const tracks = [slice('a', 1, 2), slice('b', 2, 3)];
    const run = runOf(tracks);
    expect(run.count).toBe(5);
    expect(plain(tracksOf(run))).toEqual(plain(tracks));
  });
});
