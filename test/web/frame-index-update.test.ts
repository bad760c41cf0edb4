// The editor's incremental frame index: after any sequence of edits (boxes moved, added or deleted, tracks added,
// deleted, split, merged, relabelled, undone), updating it for the edited tracks gives exactly the index a full
// rebuild gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameCounts } from '../../src/web/editor/frame-counts.js';
import {
  buildFrameIndex,
  countsPerFrame,
  updateFrameIndex,
  type FrameIndex,
} from '../../src/web/editor/frame-index.js';
import { applySnapshot, snapshot } from '../../src/web/editor/history.js';
import { makeLayer, recolor, reindex } from '../../src/web/editor/layers.js';
import { mergeTracks, splitTrack } from '../../src/web/editor/track-edits.js';
import type { Box, Run, Track } from '../../src/web/types.js';

/** The index's content: its arrays up to the boxes it holds (an updated index keeps room beyond). */
const plain = (index: FrameIndex) => {
  const n = index.start[index.frames]!;
  const of = (a: ArrayLike<number>) => Array.from(a).slice(0, n);
  return {
    frames: index.frames,
    start: [...index.start],
    x: of(index.x),
    y: of(index.y),
    w: of(index.w),
    h: of(index.h),
    conf: of(index.conf),
    track: of(index.track),
    slot: of(index.slot),
    ids: index.ids,
  };
};

const boxArb = (frame: number) =>
  fc.record({
    frame: fc.constant(frame),
    x: fc.double({ min: 0, max: 0.9, noNaN: true }),
    y: fc.double({ min: 0, max: 0.9, noNaN: true }),
    w: fc.constant(0.05),
    h: fc.constant(0.05),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  });
/** A track's boxes on distinct, sorted frames (some far apart, so the last frames can empty). */
const boxesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 8 })
  .chain((frames) => fc.tuple(...[...frames].sort((a, b) => a - b).map(boxArb)))
  .map((boxes) => boxes.map((b) => (b.confidence === undefined ? { ...b, confidence: undefined } : b)) as Box[]);

type Edit =
  | { kind: 'move'; t: number; b: number; x: number }
  | { kind: 'replace'; t: number; boxes: Box[] }
  | { kind: 'deleteBox'; t: number; b: number }
  | { kind: 'add'; at: number; boxes: Box[] }
  | { kind: 'deleteTrack'; t: number }
  | { kind: 'split'; t: number; frame: number }
  | { kind: 'merge'; t: number; other: number }
  | { kind: 'confidence'; t: number; value: number }
  | { kind: 'undo' };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('move' as const),
    t: fc.nat(),
    b: fc.nat(),
    x: fc.double({ min: 0, max: 0.9, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('replace' as const), t: fc.nat(), boxes: boxesArb }),
  fc.record({ kind: fc.constant('deleteBox' as const), t: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), boxes: boxesArb }),
  fc.record({ kind: fc.constant('deleteTrack' as const), t: fc.nat() }),
  fc.record({ kind: fc.constant('split' as const), t: fc.nat(), frame: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ kind: fc.constant('merge' as const), t: fc.nat(), other: fc.nat() }),
  fc.record({
    kind: fc.constant('confidence' as const),
    t: fc.nat(),
    value: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.constant({ kind: 'undo' as const }),
);

let made = 0;
/** Applies one edit as the editor would, and returns the ids of the tracks it touched (new ones included). */
function apply(tracks: Track[], edit: Edit, undo: { ids: string[]; before: ReturnType<typeof snapshot> } | undefined) {
  const pick = (n: number) => (tracks.length === 0 ? -1 : n % tracks.length);
  switch (edit.kind) {
    case 'move': {
      const t = tracks[pick(edit.t)];
      if (!t) return [];
      t.boxes[edit.b % t.boxes.length]!.x = edit.x;
      return [t.id];
    }
    case 'replace': {
      const t = tracks[pick(edit.t)];
      if (!t) return [];
      t.boxes = edit.boxes.map((b) => ({ ...b }));
      return [t.id];
    }
    case 'deleteBox': {
      const ti = pick(edit.t);
      const t = tracks[ti];
      if (!t) return [];
      t.boxes.splice(edit.b % t.boxes.length, 1);
      if (t.boxes.length === 0) tracks.splice(ti, 1);
      return [t.id];
    }
    case 'add': {
      const id = `n${made++}`;
      tracks.splice(edit.at % (tracks.length + 1), 0, { id, label: 'car', boxes: edit.boxes.map((b) => ({ ...b })) });
      return [id];
    }
    case 'deleteTrack': {
      const ti = pick(edit.t);
      if (ti < 0) return [];
      return [tracks.splice(ti, 1)[0]!.id];
    }
    case 'split': {
      const ti = pick(edit.t);
      if (ti < 0) return [];
      const id = `s${made++}`;
      return splitTrack(tracks, ti, edit.frame, id) ? [tracks[ti]!.id, id] : [];
    }
    case 'merge': {
      const ti = pick(edit.t);
      const other = pick(edit.other);
      if (ti < 0 || other === ti) return [];
      const ids = [tracks[ti]!.id, tracks[other]!.id];
      mergeTracks(tracks, ti, other);
      return ids;
    }
    case 'confidence': {
      const t = tracks[pick(edit.t)];
      if (!t) return [];
      t.confidence = edit.value;
      return [t.id];
    }
    case 'undo': {
      if (!undo) return [];
      applySnapshot(tracks, undo.before);
      return undo.ids;
    }
  }
}

describe('updateFrameIndex', () => {
  it('equals a rebuilt index after random edit sequences', () => {
    fc.assert(
      fc.property(
        fc.array(boxesArb, { minLength: 0, maxLength: 8 }),
        fc.array(editArb, { minLength: 1, maxLength: 25 }),
        (initial, edits) => {
          const tracks: Track[] = initial.map((boxes, i) => ({ id: `t${i}`, label: 'car', boxes }));
          let index = buildFrameIndex(tracks);
          let last: { ids: string[]; before: ReturnType<typeof snapshot> } | undefined;
          for (const edit of edits) {
            // What the edit may touch, as the editor snapshots it before the change (for undo, the current state).
            const all = tracks.map((t) => t.id);
            const state = snapshot(tracks, all);
            const ids = apply(tracks, edit, last);
            const old = state.filter((s) => ids.includes(s.id) && s.track).map((s) => s.track!);
            index = updateFrameIndex(index, tracks, ids, old);
            expect(plain(index)).toEqual(plain(buildFrameIndex(tracks)));
            last = edit.kind === 'undo' ? undefined : { ids, before: state.filter((s) => ids.includes(s.id)) };
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reindexes a layer (index, colour slots, label counts, counts per frame) as a rebuild would, after random edit sequences', () => {
    const labels = ['car', 'person', 'bus'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(boxesArb, fc.nat(2)), { minLength: 0, maxLength: 8 }),
        fc.array(editArb, { minLength: 1, maxLength: 25 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (initial, edits, threshold) => {
          const counts = new FrameCounts<object>();
          const tracks: Track[] = structuredClone(initial).map(([boxes, l], i) => ({
            id: `t${i}`,
            label: labels[l]!,
            boxes,
          }));
          const layer = makeLayer({ runId: 'r', tracks } as unknown as Run);
          let last: { ids: string[]; before: ReturnType<typeof snapshot> } | undefined;
          for (const edit of edits) {
            const state = snapshot(
              tracks,
              tracks.map((t) => t.id),
            );
            const ids = apply(tracks, edit, last);
            const old = state.filter((s) => ids.includes(s.id) && s.track).map((s) => s.track!);
            reindex(layer, { ids, before: old });
            const rebuilt = makeLayer({ runId: 'r', tracks } as unknown as Run);
            const fresh = new Uint32Array(45);
            countsPerFrame(rebuilt.index, threshold, fresh);
            expect([...counts.of(layer, layer.index, threshold, 45)]).toEqual([...fresh]);
            recolor(rebuilt);
            expect(plain(layer.index)).toEqual(plain(rebuilt.index));
            expect([[...layer.slotByLabel], [...layer.slotByTrack], layer.labels]).toEqual([
              [...rebuilt.slotByLabel],
              [...rebuilt.slotByTrack],
              rebuilt.labels,
            ]);
            last = edit.kind === 'undo' ? undefined : { ids, before: state.filter((s) => ids.includes(s.id)) };
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rewrites a moved box in place, without reading the other tracks or the other frames', () => {
    const tracks: Track[] = [
      { id: 'a', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] },
      {
        id: 'b',
        boxes: [
          { frame: 0, x: 0.2, y: 0.2, w: 0.1, h: 0.1 },
          { frame: 1, x: 0.2, y: 0.2, w: 0.1, h: 0.1 },
        ],
      },
    ];
    const index = buildFrameIndex(tracks);
    const before = snapshot(tracks, ['b']).map((s) => s.track!);
    tracks[1]!.boxes[0]!.x = 0.5;
    // Changed behind the index's back: an update for b alone must not read it.
    tracks[0]!.boxes[0]!.x = 0.9;
    const updated = updateFrameIndex(index, tracks, ['b'], before);
    expect(updated).toBe(index);
    expect([...updated.x.slice(0, 3)]).toEqual([Math.fround(0.1), Math.fround(0.5), Math.fround(0.2)]);
  });

  it('re-lays only the edited frames: the other frames keep their boxes without the tracks being read', () => {
    const tracks: Track[] = [
      { id: 'a', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] },
      { id: 'b', boxes: [{ frame: 5, x: 0.2, y: 0.2, w: 0.1, h: 0.1 }] },
    ];
    const index = buildFrameIndex(tracks);
    const before = snapshot(tracks, ['b']).map((s) => s.track!);
    tracks[1]!.boxes = [{ frame: 7, x: 0.3, y: 0.3, w: 0.1, h: 0.1 }];
    // Track a's box changed behind the index's back: an update for b alone keeps a's indexed box as it was.
    tracks[0]!.boxes[0]!.x = 0.9;
    const updated = updateFrameIndex(index, tracks, ['b'], before);
    expect([updated.frames, [...updated.start], updated.x[0], updated.x[1]]).toEqual([
      8,
      [0, 1, 1, 1, 1, 1, 1, 1, 2],
      Math.fround(0.1),
      Math.fround(0.3),
    ]);
  });
});
