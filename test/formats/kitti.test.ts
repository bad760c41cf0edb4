import { describe, expect, it } from 'vitest';
import { expectSameTracks, fixture, read, readInChunks, toExport, tracksOf, write } from './helpers.js';

const KITTI = { frameSize: { width: 1242, height: 375 } };

describe('kitti', () => {
  it('reads tracking labels: 0-based frames as given, type as label, DontCare not stored, score kept', () => {
    const result = read('kitti', fixture('kitti-tracking-0000.txt'), KITTI);
    expect(result.skipped.notObjects).toBe(2);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.boxes.map((b) => b.frame)])).toEqual([
      ['0', 'Van', [0, 1, 2]],
      ['1', 'Cyclist', [0, 1]],
    ]);
    expect(tracks[0]!.boxes[2]!.confidence).toBe(0.97);
    expect(tracks[0]!.boxes[0]!.x).toBe(296.744956 / 1242);
    expect(tracksOf(toExport(readInChunks('kitti', fixture('kitti-tracking-0000.txt'), 17, KITTI)))).toEqual(tracks);
  });

  it('reports short rows and text in numbers by line', () => {
    const text = '0 1 Car 0 0 0 1 2 3\n0 2 Car 0 0 0 a 2 30 40 1 1 1 1 1 1 1\nx 3 Car 0 0 0 1 2 30 40 1 1 1 1 1 1 1\n';
    const result = read('kitti', Buffer.from(text), KITTI);
    expect(result.malformed.map((m) => m.position)).toEqual([{ line: 1 }, { line: 2 }, { line: 3 }]);
  });

  it('round trips: read → write → read the same run, write → read → write the same bytes', () => {
    const first = toExport(read('kitti', fixture('kitti-tracking-0000.txt'), KITTI));
    const bytes = write('kitti', first);
    expect(bytes.toString().split('\n')[0]).toBe(
      '0 0 Van -1 -1 -10 296.744956 161.752147 455.226042 292.372804 -1 -1 -1 -1000 -1000 -1000 -10',
    );
    const second = toExport(read('kitti', bytes, KITTI));
    expectSameTracks(tracksOf(second), tracksOf(first));
    expect(write('kitti', second).equals(bytes)).toBe(true);
  });
});
