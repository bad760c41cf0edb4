// The editor's pure core, in Node: the frame index, layer grouping, corrections and the body they save.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildFrameIndex, countsPerFrame, findInIndex, presence } from '../../src/web/editor/frame-index.js';
import { groupLayers, makeLayer, boxCount } from '../../src/web/editor/layers.js';
import { correctedRunBody, deleteBox, deleteTrack, moveBox, resizeBox } from '../../src/web/editor/corrections.js';
import { validateRun } from '../../src/detections/validate-run.js';
import type { Run, Track } from '../../src/web/types.js';

function run(runId: string, name: string | undefined, tracks: Track[], createdAt = '2026-01-01T00:00:00.000Z'): Run {
  return {
    runId,
    mediaKey: 'cam/1700000000_a.mp4',
    analysisId: 'a1',
    task: 'detection',
    schemaVersion: '1.0',
    source: { kind: 'model', ...(name ? { name } : {}), version: '1', runId },
    coordinateSpace: 'normalized',
    originalCoordinateSpace: 'normalized',
    originalBoxForm: 'xywh',
    media: { width: 640, height: 360, fps: 25 },
    categories: [],
    recordingTimestamp: 1_700_000_000,
    revision: 1,
    createdAt,
    updatedAt: createdAt,
    tracksStored: tracks.length,
    boxesStored: tracks.reduce((n, t) => n + t.boxes.length, 0),
    tracks,
  };
}

const box = (frame: number, x = 0.1, confidence?: number) => ({
  frame,
  x,
  y: 0.2,
  w: 0.1,
  h: 0.1,
  ...(confidence === undefined ? {} : { confidence }),
});

describe('frame index', () => {
  it('puts exactly the boxes of frame f between start[f] and start[f+1]', () => {
    const tracks = fc.sample(
      fc.array(
        fc.record({
          id: fc.uuid(),
          boxes: fc
            .uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 30 })
            .map((fs) => fs.sort((a, b) => a - b).map((f) => box(f, Math.random() * 0.8))),
        }),
        { minLength: 1, maxLength: 40 },
      ),
      25,
    );
    for (const ts of tracks) {
      const index = buildFrameIndex(ts);
      for (let f = 0; f < index.frames; f++) {
        const expected = ts
          .flatMap((t, ti) =>
            t.boxes.flatMap((b, bi) => (b.frame === f ? [`${ti}:${bi}:${Math.fround(b.x).toFixed(5)}`] : [])),
          )
          .sort();
        const got: string[] = [];
        for (let i = index.start[f]!; i < index.start[f + 1]!; i++)
          got.push(`${index.track[i]}:${index.slot[i]}:${index.x[i]!.toFixed(5)}`);
        expect(got.sort()).toEqual(expected);
      }
      expect(index.start[index.frames]).toBe(ts.reduce((n, t) => n + t.boxes.length, 0));
    }
  });

  it('counts boxes at a confidence threshold; a box without confidence always counts', () => {
    const index = buildFrameIndex([
      { id: 'a', boxes: [box(0, 0.1, 0.2), box(1, 0.1, 0.9)] },
      { id: 'b', boxes: [box(0)] },
      { id: 'c', confidence: 0.95, boxes: [box(1)] },
    ]);
    const counts = new Uint32Array(2);
    countsPerFrame(index, 0.5, counts);
    expect([...counts]).toEqual([1, 2]);
    expect(findInIndex(index, 1, 2, 0)).toBeGreaterThanOrEqual(0);
    expect(findInIndex(index, 0, 2, 0)).toBe(-1);
  });

  it('splits presence at gaps of more than one frame', () => {
    expect(presence({ id: 't', boxes: [box(0), box(1), box(2), box(5), box(6), box(9)] })).toEqual([
      [0, 2],
      [5, 6],
      [9, 9],
    ]);
  });
});

describe('layers', () => {
  it('groups sibling runs by source.name in API order, falling back to the run name or id', () => {
    const layers = [
      run('r1', 'yolo', [{ id: 'a', boxes: [box(0)] }]),
      run('r2', 'tracker', [{ id: 'a', boxes: [box(0)] }]),
      run('r3', 'yolo', [{ id: 'a', boxes: [box(0)] }]),
      run('r4', undefined, [{ id: 'a', boxes: [box(0)] }]),
    ].map(makeLayer);
    expect(groupLayers(layers).map((g) => [g.name, g.layers.map((l) => l.runId)])).toEqual([
      ['yolo', ['r1', 'r3']],
      ['tracker', ['r2']],
      ['r4', ['r4']],
    ]);
  });
});

describe('corrections', () => {
  const fresh = () =>
    makeLayer(
      run('r1', 'yolo', [
        { id: 'p', label: 'person', boxes: [box(0, 0.1, 0.5), box(1, 0.15, 0.6)] },
        { id: 'c', label: 'car', boxes: [box(1, 0.5)] },
      ]),
    );

  it('moves a box inside the frame and resizes it by a corner', () => {
    const layer = fresh();
    const i = findInIndex(layer.index, 0, 0, 0);
    moveBox(layer, i, 0.95, -0.3);
    expect(layer.tracks[0]!.boxes[0]).toMatchObject({ x: 0.9, y: 0 });
    expect(layer.index.x[i]).toBeCloseTo(0.9, 6);
    resizeBox(layer, i, 3, 0.5, 0.5);
    expect(layer.tracks[0]!.boxes[0]!.w).toBeGreaterThan(0);
    expect(layer.tracks[0]!.boxes[0]!.x).toBeCloseTo(0.9, 9);
    expect(layer.edited).toBe(true);
  });

  it('deletes a box, drops a track left empty, and deletes whole tracks', () => {
    const layer = fresh();
    deleteBox(layer, findInIndex(layer.index, 1, 1, 0));
    expect(layer.tracks.map((t) => t.id)).toEqual(['p']);
    expect(boxCount(layer)).toBe(2);
    deleteTrack(layer, 0);
    expect(layer.tracks).toEqual([]);
    expect(boxCount(layer)).toBe(0);
  });

  it('saves a replacement under the same runId and source, and a new layer as a human run', () => {
    const layer = fresh();
    moveBox(layer, findInIndex(layer.index, 0, 0, 0), 0.3, 0.3);
    const replace = correctedRunBody(layer, 'replace');
    expect(replace).toMatchObject({
      mediaKey: 'cam/1700000000_a.mp4',
      coordinateSpace: 'normalized',
      source: { runId: 'r1', name: 'yolo', kind: 'model', version: '1' },
    });
    const result = validateRun(replace);
    expect(result.ok && result.boxes.count).toBe(3);
    const created = correctedRunBody(layer, 'new', 'alice');
    expect(created.source).toEqual({ kind: 'human', name: 'yolo (corrected)', correctedFrom: 'r1', editor: 'alice' });
    const parsed = validateRun(created);
    expect(parsed.ok).toBe(true);
    expect((created.tracks as Array<{ boxes: Array<{ x: number }> }>)[0]!.boxes[0]!.x).toBe(0.3);
  });

  it('keeps the interpolated mark on save, and drops it from a box a person moved', () => {
    const layer = makeLayer(
      run('r1', 'yolo', [
        {
          id: 'p',
          boxes: [
            { ...box(0), interpolated: true },
            { ...box(1), interpolated: true },
          ],
        },
      ]),
    );
    moveBox(layer, findInIndex(layer.index, 1, 0, 1), 0.3, 0.3);
    const tracks = correctedRunBody(layer, 'replace').tracks as Array<{ boxes: Array<{ interpolated?: true }> }>;
    expect(tracks[0]!.boxes.map((b) => b.interpolated)).toEqual([true, undefined]);
  });
});
