import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip, safeEntryName } from '../../src/formats/zip-input.js';
import { namesFromYaml } from '../../src/formats/yolo-names.js';
import { rejectionPositions } from '../../src/formats/rejection-positions.js';
import {
  exportRunOf,
  expectSameTracks,
  read,
  readInChunks,
  toExport,
  tracksOf,
  validate,
  write,
  zipFolder,
} from './helpers.js';

const MTIME = new Date(2000, 0, 1);
const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), { mtime: MTIME });

describe('yolo reader', () => {
  it('reads ultralytics tracking output without save_conf: frames from 1, ids last, class numbers without names', () => {
    const result = read('yolo', zipFolder('ultralytics-track'));
    expect(result.run.coordinateSpace).toBe('normalized');
    expect(result.malformed).toEqual([]);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.classId, t.boxes.map((b) => b.frame)])).toEqual([
      ['1', undefined, 0, [0, 1, 3]],
      ['2', undefined, 2, [0, 1]],
    ]);
    const b = tracks[0]!.boxes[0]!;
    expect(b.confidence).toBeUndefined();
    expect(b.x).toBeCloseTo(0.479492 - 0.0648438 / 2, 15);
    expect(b.w).toBe(0.0648438);
    expect(result.positionOf(1, 1)).toEqual({ entry: 'labels/clip_2.txt:2' });
  });

  it('reads save_conf output with names from data.yaml', () => {
    const tracks = tracksOf(toExport(read('yolo', zipFolder('ultralytics-track-conf'))));
    expect(tracks.map((t) => [t.id, t.label, t.classId, t.boxes.map((b) => b.confidence)])).toEqual([
      ['1', 'person', 0, [0.912345, 0.90625]],
      ['2', 'car', 2, [0.654321, 0.7]],
    ]);
    expect(tracksOf(toExport(readInChunks('yolo', zipFolder('ultralytics-track-conf'), 50)))).toEqual(tracks);
  });

  it('reports rows it cannot read by entry and line', () => {
    const zip = zipOf({
      'classes.txt': 'person\ncar\n',
      'labels/v_1.txt':
        '0 0.5 0.5 0.1 0.1 3\n0 0.5 0.5 0.1\n7 0.5 0.5 0.1 0.1 4\n0 0.5 x 0.1 0.1 5\n0 0.5 0.5 -0.1 0.1 6\n',
      'labels/notes.txt': 'hello\n',
    });
    const result = read('yolo', zip);
    expect(result.malformed.map((m) => [m.position, m.detail])).toEqual([
      [{ entry: 'labels/notes.txt:0' }, 'not a label file: its name is not <stem>_<frame>.txt'],
      [{ entry: 'labels/v_1.txt:2' }, '4 fields; rows are "class cx cy w h [conf] [track_id]" (5 to 7 fields)'],
      [{ entry: 'labels/v_1.txt:3' }, 'class 7 is not among the 2 names of the dataset'],
      [{ entry: 'labels/v_1.txt:4' }, 'class, cx, cy, w, h and conf must be numbers'],
    ]);
    validate(result);
    expect(rejectionPositions(result)).toEqual([{ entry: 'labels/v_1.txt:5' }]);
  });

  it('refuses entries outside the root, symbolic links, zip bombs, too many entries, not a zip, an empty file', () => {
    const bad = (zip: Uint8Array) => () => read('yolo', zip);
    expect(bad(zipOf({ '../x_1.txt': '0 0.5 0.5 0.1 0.1 1\n' }))).toThrowError(
      expect.objectContaining({ code: 'invalid_file', position: { entry: '../x_1.txt' } }),
    );
    expect(bad(zipOf({ 'labels/../../x_1.txt': '0 0.5 0.5 0.1 0.1 1\n' }))).toThrowError(/outside the archive/);
    expect(bad(zipOf({ '/etc/x_1.txt': '0 0.5 0.5 0.1 0.1 1\n' }))).toThrowError(/outside the archive/);
    expect(safeEntryName('C:/x.txt')).toBe(false);
    expect(safeEntryName('..\\x.txt')).toBe(false);
    expect(safeEntryName('labels/a..b_1.txt')).toBe(true);
    const symlink = zipSync(
      { 'labels/x_1.txt': [strToU8('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }] },
      { mtime: MTIME },
    );
    expect(bad(symlink)).toThrowError(
      expect.objectContaining({ code: 'invalid_file', message: expect.stringMatching(/symbolic link/) }),
    );
    const fifo = zipSync(
      { 'labels/x_1.txt': [strToU8(''), { os: 3, attrs: (0o010644 << 16) >>> 0 }] },
      { mtime: MTIME },
    );
    expect(bad(fifo)).toThrowError(/not a file/);
    const regular = zipSync(
      { 'labels/x_1.txt': [strToU8('0 0.5 0.5 0.1 0.1 1\n'), { os: 3, attrs: (0o100644 << 16) >>> 0 }] },
      { mtime: MTIME },
    );
    expect(read('yolo', regular).run.tracks).toHaveLength(1);
    // 33 MiB of zeros deflate to about 33 KiB: stopped while inflating, past the 32 MiB limit.
    const bomb = zipSync({ 'labels/x_1.txt': new Uint8Array(33 * 1024 * 1024) }, { mtime: MTIME, level: 1 });
    expect(bomb.length).toBeLessThan(100_000);
    expect(bad(bomb)).toThrowError(expect.objectContaining({ code: 'payload_too_large' }));
    // Many small entries that add up past the limit are stopped the same way.
    const small = zipOf({ 'a_1.txt': 'x'.repeat(1000), 'a_2.txt': 'y'.repeat(1000) });
    expect(() => readZip(small, { maxDecodedBytes: 1500 })).toThrowError(
      expect.objectContaining({ code: 'payload_too_large' }),
    );
    expect(() => readZip(small, { maxEntries: 1 })).toThrowError(/2 entries/);
    expect(bad(strToU8('0 0.5 0.5 0.1 0.1 1\n'))).toThrowError(/Not a zip/);
    expect(bad(new Uint8Array(0))).toThrowError(/empty/);
    expect(bad(zipOf({ 'readme.md': 'hi' }))).toThrowError(/no <stem>_<frame>.txt/);
    expect(bad(zipOf({ 'a_1.txt': '0 0.5 0.5 0.1 0.1 1\n', 'b_1.txt': '0 0.5 0.5 0.1 0.1 1\n' }))).toThrowError(
      /2 videos/,
    );
  });

  it('reads the names of data.yaml in each way YAML writes a list', () => {
    expect(namesFromYaml('names: [\'a\', "b, c", d]\n')).toEqual(
      new Map([
        [0, 'a'],
        [1, 'b, c'],
        [2, 'd'],
      ]),
    );
    expect(namesFromYaml('nc: 2\nnames:\n  - cat\n  - dog\nval: x\n')).toEqual(
      new Map([
        [0, 'cat'],
        [1, 'dog'],
      ]),
    );
    expect(namesFromYaml('names:\n  0: person\n  5: "traffic light"\n')).toEqual(
      new Map([
        [0, 'person'],
        [5, 'traffic light'],
      ]),
    );
    expect(namesFromYaml('path: x\n')).toBeUndefined();
  });
});

describe('yolo writer', () => {
  it('writes a zip of per-frame files (frames from 1), classes.txt and data.yaml', () => {
    const run = exportRunOf([
      {
        id: 'a',
        label: 'car',
        classId: 2,
        boxes: [
          { frame: 0, x: 0.25, y: 0.25, w: 0.5, h: 0.5, confidence: 0.9 },
          { frame: 4, x: 0, y: 0, w: 0.5, h: 0.25 },
        ],
      },
      { id: '3', label: 'person', boxes: [{ frame: 0, x: 0.5, y: 0.5, w: 0.25, h: 0.25 }] },
    ]);
    const files = unzipSync(new Uint8Array(write('yolo', run, { stem: 'clip' })));
    const text = (name: string) => new TextDecoder().decode(files[name]);
    expect(Object.keys(files)).toEqual(['data.yaml', 'classes.txt', 'labels/clip_1.txt', 'labels/clip_5.txt']);
    expect(text('classes.txt')).toBe('class0\nclass1\ncar\nperson\n');
    expect(text('data.yaml')).toBe('nc: 4\nnames:\n  0: "class0"\n  1: "class1"\n  2: "car"\n  3: "person"\n');
    // "3" stays 3; "a" is numbered after it.
    expect(text('labels/clip_1.txt')).toBe('2 0.5 0.5 0.5 0.5 0.9 4\n3 0.625 0.625 0.25 0.25 3\n');
    expect(text('labels/clip_5.txt')).toBe('2 0.25 0.125 0.5 0.25 4\n');
  });

  it('round trips: read → write → read the same run, write → read → write the same bytes', () => {
    for (const folder of ['ultralytics-track', 'ultralytics-track-conf']) {
      const first = toExport(read('yolo', zipFolder(folder)));
      const bytes = write('yolo', first);
      const second = toExport(read('yolo', bytes));
      expectSameTracks(tracksOf(second), tracksOf(first), 1e-12);
      expect(write('yolo', second).equals(bytes)).toBe(true);
    }
  });
});
