// The editor's correction core, in Node: undo/redo snapshots, the PATCH body (tracks changed since load),
// keyframe interpolation, and the track edits (new track, relabel, range delete, split, merge).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applySnapshot, History, snapshot } from '../../src/web/editor/history.js';
import { buildPatch, isEmptyPatch, markChanged, remember, type Baseline } from '../../src/web/editor/patch.js';
import { addKeyframe, between, interpolateAround, toggleKeyframe } from '../../src/web/editor/interpolate.js';
import {
  addTrack,
  deleteFrames,
  freshTrackId,
  mergeProblem,
  mergeTracks,
  relabel,
  splitTrack,
} from '../../src/web/editor/track-edits.js';
import type { Box, Track } from '../../src/web/types.js';

const box = (frame: number, x = 0.1, extra: Partial<Box> = {}): Box => ({ frame, x, y: 0.2, w: 0.1, h: 0.1, ...extra });
const track = (id: string, frames: number[], label = 'car'): Track => ({ id, label, boxes: frames.map((f) => box(f)) });
const copy = (t: Track[]) => JSON.parse(JSON.stringify(t)) as Track[];

describe('history', () => {
  it('undo puts back exactly the tracks before an edit, redo the tracks after it, in their places', () => {
    const tracks = [track('a', [0, 1]), track('b', [0]), track('c', [2])];
    const start = copy(tracks);
    const h = new History<string>();
    // Edit 1: delete b. Edit 2: add d at the end and change c.
    let before = snapshot(tracks, ['b']);
    tracks.splice(1, 1);
    h.push({ layer: 'L', before, after: snapshot(tracks, ['b']) });
    const afterOne = copy(tracks);
    before = snapshot(tracks, ['c', 'd']);
    tracks.push(track('d', [5]));
    tracks[1]!.boxes[0]!.x = 0.5;
    h.push({ layer: 'L', before, after: snapshot(tracks, ['c', 'd']) });
    const afterTwo = copy(tracks);

    applySnapshot(tracks, h.undo()!.before);
    expect(tracks).toEqual(afterOne);
    applySnapshot(tracks, h.undo()!.before);
    expect(tracks).toEqual(start);
    expect(h.canUndo).toBe(false);
    applySnapshot(tracks, h.redo()!.after);
    applySnapshot(tracks, h.redo()!.after);
    expect(tracks).toEqual(afterTwo);
    expect(h.canRedo).toBe(false);
  });

  it('a new step forgets what was undone; forget drops one layer', () => {
    const h = new History<string>();
    h.push({ layer: 'A', before: [], after: [] });
    h.undo();
    expect(h.canRedo).toBe(true);
    h.push({ layer: 'B', before: [], after: [] });
    expect(h.canRedo).toBe(false);
    h.forget('B');
    expect(h.canUndo).toBe(false);
  });

  it('snapshots are copies: editing after a snapshot does not change it', () => {
    const tracks = [track('a', [0])];
    const s = snapshot(tracks, ['a']);
    tracks[0]!.boxes[0]!.x = 0.9;
    expect(s[0]!.track!.boxes[0]!.x).toBe(0.1);
  });

  it('any sequence of deletions and moves undone in reverse order gives back the start (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(9), fc.boolean(), fc.double({ min: 0, max: 0.8, noNaN: true })), { maxLength: 20 }),
        (ops) => {
          const tracks = Array.from({ length: 10 }, (_, i) => track(`t${i}`, [i, i + 1]));
          const start = copy(tracks);
          const h = new History<string>();
          for (const [n, del, x] of ops) {
            const id = `t${n}`;
            const before = snapshot(tracks, [id]);
            const at = tracks.findIndex((t) => t.id === id);
            if (at >= 0 && del) tracks.splice(at, 1);
            else if (at >= 0) tracks[at]!.boxes[0]!.x = x;
            else tracks.push(track(id, [n]));
            h.push({ layer: 'L', before, after: snapshot(tracks, [id]) });
          }
          for (let s = h.undo(); s; s = h.undo()) applySnapshot(tracks, s.before);
          expect(tracks).toEqual(start);
        },
      ),
    );
  });
});

describe('patch body', () => {
  it('has only the tracks changed since load: an upsert per changed or new track, a delete per removed one', () => {
    const tracks = Array.from({ length: 50 }, (_, i) => track(String(i), [i]));
    const base: Baseline = new Map();
    remember(base, tracks, ['3', '7', '9', 'new-1']);
    tracks[3]!.boxes[0]!.x = 0.4;
    relabel(tracks[7]!, 'bus');
    tracks.splice(9, 1);
    addTrack(tracks, 'new-1', 'person', box(4));
    const p = buildPatch(base, tracks, 6);
    expect(p.baseRevision).toBe(6);
    expect(p.tracks.upsert.map((t) => t.id)).toEqual(['3', '7', 'new-1']);
    expect(p.tracks.delete).toEqual(['9']);
    expect(p.tracks.upsert[0]).toEqual({
      id: '3',
      label: 'car',
      boxes: [{ frame: 3, x: 0.4, y: 0.2, w: 0.1, h: 0.1 }],
    });
  });

  it('a track edited and put back as it was, or added and removed again, is not sent', () => {
    const tracks = [track('a', [0])];
    const base: Baseline = new Map();
    remember(base, tracks, ['a', 'n']);
    tracks[0]!.boxes[0]!.x = 0.5;
    tracks[0]!.boxes[0]!.x = 0.1;
    expect(isEmptyPatch(buildPatch(base, tracks, 1))).toBe(true);
  });

  it('remember keeps the first state: a second edit of a track still compares with the load', () => {
    const tracks = [track('a', [0])];
    const base: Baseline = new Map();
    remember(base, tracks, ['a']);
    tracks[0]!.boxes[0]!.x = 0.5;
    remember(base, tracks, ['a']);
    tracks[0]!.boxes[0]!.x = 0.1;
    expect(isEmptyPatch(buildPatch(base, tracks, 1))).toBe(true);
  });

  it('the changed set, kept edit by edit for the edited tracks, is empty exactly when the patch is', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ t: fc.nat(5), kind: fc.constantFrom('move', 'back', 'relabel', 'delete', 'add', 'undo') }),
          { minLength: 1, maxLength: 30 },
        ),
        (edits) => {
          const tracks = Array.from({ length: 6 }, (_, i) => track(String(i), [i]));
          const base: Baseline = new Map();
          const changed = new Set<string>();
          const history = new History<null>();
          for (const e of edits) {
            const target = tracks[e.t % tracks.length];
            const id = e.kind === 'add' ? `n${e.t}` : target?.id;
            if (e.kind === 'undo') {
              const step = history.undo();
              if (!step) continue;
              applySnapshot(tracks, step.before);
              markChanged(
                changed,
                base,
                tracks,
                step.before.map((s) => s.id),
              );
            } else {
              if (id === undefined || (e.kind === 'add' && tracks.some((t) => t.id === id))) continue;
              remember(base, tracks, [id]);
              const before = snapshot(tracks, [id]);
              if (e.kind === 'move') target!.boxes[0]!.x = 0.5;
              else if (e.kind === 'back') target!.boxes[0]!.x = 0.1;
              else if (e.kind === 'relabel') relabel(target!, target!.label === 'bus' ? 'car' : 'bus');
              else if (e.kind === 'delete') tracks.splice(tracks.indexOf(target!), 1);
              else addTrack(tracks, id, 'person', box(1));
              history.push({ layer: null, before, after: snapshot(tracks, [id]) });
              markChanged(changed, base, tracks, [id]);
            }
            const patch = buildPatch(base, tracks, 1);
            expect([...changed].sort()).toEqual(
              [...patch.tracks.upsert.map((t) => t.id as string), ...patch.tracks.delete].sort(),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps interpolated marks on the boxes it sends', () => {
    const tracks = [track('a', [0, 10])];
    const base: Baseline = new Map();
    remember(base, tracks, ['a']);
    interpolateAround(tracks[0]!, 10);
    const sent = buildPatch(base, tracks, 1).tracks.upsert[0]!.boxes as Box[];
    expect(sent).toHaveLength(11);
    expect(sent[5]).toMatchObject({ frame: 5, interpolated: true });
  });
});

describe('interpolation', () => {
  it('frame 15 between keyframes at 10 and 20 is exactly the midpoint', () => {
    const t: Track = {
      id: 'a',
      boxes: [
        { frame: 10, x: 0.1, y: 0.3, w: 0.2, h: 0.1 },
        { frame: 20, x: 0.5, y: 0.1, w: 0.1, h: 0.3 },
      ],
    };
    interpolateAround(t, 20);
    const mid = t.boxes.find((b) => b.frame === 15)!;
    expect(mid).toEqual({
      frame: 15,
      x: (0.1 + 0.5) / 2,
      y: (0.3 + 0.1) / 2,
      w: (0.2 + 0.1) / 2,
      h: (0.1 + 0.3) / 2,
      interpolated: true,
    });
    expect(t.boxes.map((b) => b.frame)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('is exact at both keyframes and stays between them (property)', () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(unit, unit, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 2, max: 50 }), (x0, x1, f0, span) => {
        const a = { frame: f0, x: x0, y: x0, w: x1, h: x1 };
        const b = { frame: f0 + span, x: x1, y: x1, w: x0, h: x0 };
        expect(between(a, b, f0).x).toBe(x0);
        expect(between(a, b, f0 + span).x).toBe(x1);
        for (let f = f0; f <= f0 + span; f++) {
          const v = between(a, b, f).x;
          expect(v).toBeGreaterThanOrEqual(Math.min(x0, x1) - 1e-15);
          expect(v).toBeLessThanOrEqual(Math.max(x0, x1) + 1e-15);
        }
      }),
    );
  });

  it('replaces interpolated boxes only in the two segments around the edited keyframe', () => {
    const t: Track = { id: 'a', boxes: [box(0), box(5, 0.5), box(10), box(20, 0.3, { interpolated: true }), box(30)] };
    interpolateAround(t, 5);
    expect(t.boxes.filter((b) => b.frame <= 10)).toHaveLength(11);
    // The box at 20 lies beyond the next keyframe (10): untouched.
    expect(t.boxes.find((b) => b.frame === 20)).toEqual(box(20, 0.3, { interpolated: true }));
  });

  it('toggling a keyframe between two keyframes makes it interpolated on their line; toggling back keeps it there', () => {
    const t: Track = { id: 'a', boxes: [box(0, 0), box(5, 0.7), box(10, 0.5)] };
    toggleKeyframe(t, 5);
    const at5 = () => t.boxes.find((b) => b.frame === 5);
    expect(at5()).toMatchObject({ frame: 5, x: 0.25, interpolated: true });
    // The frames between the two keyframes are filled too.
    expect(t.boxes.map((b) => b.frame)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    toggleKeyframe(t, 5);
    expect(at5()).toEqual({ frame: 5, x: 0.25, y: 0.2, w: 0.1, h: 0.1 });
  });

  it('a keyframe added after the track end copies the nearest box and fills the gap', () => {
    const t = track('a', [10]);
    addKeyframe(t, 14);
    expect(t.boxes.map((b) => [b.frame, b.interpolated ?? false])).toEqual([
      [10, false],
      [11, true],
      [12, true],
      [13, true],
      [14, false],
    ]);
    expect(addKeyframe(t, 12)).toBeUndefined();
  });
});

describe('track edits', () => {
  it('fresh ids never collide', () => {
    const tracks = [track('new-1', [0]), track('new-3', [0])];
    expect(freshTrackId(tracks)).toBe('new-2');
  });

  it('relabel changes the track and the box labels it carries', () => {
    const t: Track = { id: 'a', label: 'car', boxes: [box(0, 0.1, { label: 'car' }), box(1)] };
    relabel(t, 'truck');
    expect(t.label).toBe('truck');
    expect(t.boxes.map((b) => b.label)).toEqual(['truck', undefined]);
  });

  it('deleteFrames removes a range; removing every box is refused (delete the track)', () => {
    const t = track('a', [0, 1, 2, 3, 4]);
    expect(deleteFrames(t, 1, 3)).toBe(true);
    expect(t.boxes.map((b) => b.frame)).toEqual([0, 4]);
    expect(deleteFrames(t, 0, 9)).toBe(false);
    expect(t.boxes).toHaveLength(2);
  });

  it('split at a frame moves that frame and later into a new track right after; merge gives it back', () => {
    const tracks = [track('a', [0, 1, 2, 3]), track('b', [7])];
    const part = splitTrack(tracks, 0, 2, 'a-split-1')!;
    expect(tracks.map((t) => t.id)).toEqual(['a', 'a-split-1', 'b']);
    expect(tracks[0]!.boxes.map((b) => b.frame)).toEqual([0, 1]);
    expect(part).toMatchObject({ label: 'car' });
    expect(part.boxes.map((b) => b.frame)).toEqual([2, 3]);
    expect(splitTrack(tracks, 0, 0, 'x')).toBeUndefined();
    mergeTracks(tracks, 0, 1);
    expect(tracks).toEqual([track('a', [0, 1, 2, 3]), track('b', [7])]);
  });

  it('merge keeps one box per frame: the target keyframe, unless it is interpolated and the other is not', () => {
    const tracks: Track[] = [
      { id: 'a', boxes: [box(0, 0.1), box(1, 0.1, { interpolated: true })] },
      { id: 'b', boxes: [box(0, 0.9), box(1, 0.9), box(2, 0.9)] },
    ];
    mergeTracks(tracks, 0, 1);
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.boxes.map((b) => b.x)).toEqual([0.1, 0.9, 0.9]);
  });

  it('mergeProblem names what stands in the way of a merge by typed id, in words', () => {
    const tracks = [track('a', [0, 1, 2]), track('b', [3, 4]), track('c', [2]), track('d', [1, 2, 5])];
    expect(mergeProblem(tracks, 0, ' ')).toBe('Type the id of the track to merge into this one.');
    expect(mergeProblem(tracks, 0, 'a')).toBe('Track a is the selected track: type the id of another track.');
    expect(mergeProblem(tracks, 0, 'zz')).toBe('This layer has no track zz.');
    expect(mergeProblem(tracks, 0, 'c')).toBe(
      'Tracks a and c both have a box on frame 2: delete those frames from one of them first.',
    );
    expect(mergeProblem(tracks, 0, 'd')).toBe(
      'Tracks a and d both have a box on 2 frames (1–2): delete those frames from one of them first.',
    );
    // Ids are typed as text: surrounding spaces do not count.
    expect(mergeProblem(tracks, 0, ' b ')).toBeUndefined();
  });
});
