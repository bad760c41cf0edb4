import { describe, expect, it } from 'vitest';
import { cvatVideoReader } from '../../src/formats/cvat-video.js';
import { interpolate } from '../../src/formats/interpolate.js';
import { readBytes, readChunks } from '../../src/formats/read-all.js';
import { rejectionPositions } from '../../src/formats/rejection-positions.js';
import {
  exportRunOf,
  expectSameTracks,
  fixture,
  read,
  readInChunks,
  toExport,
  tracksOf,
  validate,
  write,
} from './helpers.js';

describe('cvat-video reader', () => {
  it('reads CVAT for video 1.1: original_size, frames as given, outside and other shapes counted', () => {
    const reader = cvatVideoReader();
    const result = readBytes(reader, fixture('cvat-video-1.1.xml'));
    expect(reader.meta).toEqual({ startFrame: 10, stopFrame: 24, frameFilter: 'step=2', labels: ['car', 'person'] });
    expect(result.run.media).toEqual({ width: 1280, height: 720, frameCount: 25 });
    // The outside box of track 0 and the outside polygon are not objects; three polygons/points are not boxes.
    expect(result.skipped).toEqual({ notObjects: 1, nonBoxShapes: 3, untracked: 0 });
    expect(result.malformed).toEqual([]);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.boxes.map((b) => b.frame)])).toEqual([
      ['0', 'car', [10, 12]],
      ['1', 'person', [10, 12, 14]],
    ]);
    expect(tracks[0]!.boxes[1]).toEqual({ frame: 12, x: 110.5 / 1280, y: 201.25 / 720, w: 200 / 1280, h: 150 / 720 });
    expect(result.positionOf(1, 2)).toEqual({ element: 'track[2]/box[3]' });
  });

  it('reads the same in chunks of any size (characters and tags split across chunks)', () => {
    const bytes = fixture('cvat-video-1.1.xml');
    const whole = tracksOf(toExport(read('cvat-video', bytes)));
    for (const size of [1, 5, 100]) expect(tracksOf(toExport(readInChunks('cvat-video', bytes, size)))).toEqual(whole);
  });

  it('takes an async stream of chunks', async () => {
    const bytes = fixture('cvat-video-1.1.xml');
    async function* chunks() {
      for (let o = 0; o < bytes.length; o += 64) yield bytes.subarray(o, o + 64);
    }
    const streamed = await readChunks(cvatVideoReader(), chunks());
    expect(tracksOf(toExport(streamed))).toEqual(tracksOf(toExport(read('cvat-video', bytes))));
  });

  it('names a bad box by its element', () => {
    const xml = `<annotations><meta><task><original_size><width>100</width><height>100</height></original_size></task></meta>
<track id="4" label="a"><box frame="0" outside="0" xtl="1" ytl="1" xbr="5" ybr="5"/><box frame="x" xtl="1" ytl="1" xbr="5" ybr="5"/><box frame="2" xtl="9" ytl="1" xbr="5" ybr="5"/><box frame="3" xtl="a" ytl="1" xbr="5" ybr="5"/></track></annotations>`;
    const result = read('cvat-video', Buffer.from(xml));
    expect(result.malformed.map((m) => [m.position, m.trackId, m.frame])).toEqual([
      [{ element: 'track[1]/box[2]' }, '4', null],
      [{ element: 'track[1]/box[4]' }, '4', 3],
    ]);
    const validated = validate(result);
    expect(validated.rejected.toJSON()).toEqual([{ trackId: '4', frame: 2, reason: 'box_non_positive_dimensions' }]);
    expect(rejectionPositions(result)).toEqual([{ element: 'track[1]/box[3]' }]);
  });

  it('refuses what is not a CVAT video file, with the line of the first problem', () => {
    const bad = (text: string | Buffer) => () => read('cvat-video', Buffer.from(text));
    expect(bad(fixture('cvat-truncated.xml'))).toThrowError(expect.objectContaining({ code: 'invalid_file' }));
    expect(bad(fixture('empty.txt'))).toThrowError(expect.objectContaining({ code: 'invalid_file' }));
    expect(bad('frame,id\n1,2\n')).toThrowError(
      expect.objectContaining({ code: 'invalid_file', position: { line: 1 } }),
    );
    expect(
      bad('<annotations>\n<track id="1" label="a">\n<box frame="0" xtl="1" ytl="1" xbr="2" ybr="2">\n</track>'),
    ).toThrowError(expect.objectContaining({ code: 'invalid_file', position: { line: 4 } }));
    expect(bad('<annotations><image id="0" name="a.jpg"/></annotations>')).toThrowError(/CVAT for images/);
    expect(bad('<annotations><meta/></annotations>')).toThrowError(/no <track>/);
    try {
      bad(fixture('cvat-truncated.xml'))();
    } catch (err) {
      expect((err as { position: { line: number } }).position.line).toBeGreaterThanOrEqual(70);
    }
  });
});

describe('cvat-video writer', () => {
  const media = { width: 1280, height: 720 };

  it('writes keyframes, an outside box after a track ends or pauses, and keyframe="0" for interpolated boxes', () => {
    const run = exportRunOf(
      [
        {
          id: 'a',
          label: 'car',
          boxes: [
            { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
            { frame: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
            { frame: 5, x: 0.5, y: 0.1, w: 0.2, h: 0.2 },
          ],
        },
        { id: '7', label: 'person', boxes: [{ frame: 9, x: 0, y: 0, w: 0.5, h: 0.5 }] },
      ],
      { ...media, frameCount: 10 },
    );
    const xml = write('cvat-video', run).toString();
    expect(xml).toContain('<stop_frame>9</stop_frame>');
    expect(xml).toContain('<width>1280</width>');
    // "7" is an integer and stays; "a" is numbered after it.
    expect(xml).toContain('<track id="8" label="car" source="auto">');
    expect(xml).toContain('<track id="7" label="person" source="auto">');
    const frames = [...xml.matchAll(/<box frame="(\d+)" keyframe="(\d)" outside="(\d)"/g)].map((m) =>
      m.slice(1).join(':'),
    );
    // A pause after frame 1 (outside at 2), the end after 5 (outside at 6); track 7 ends on the last frame.
    expect(frames).toEqual(['0:1:0', '1:1:0', '2:1:1', '5:1:0', '6:1:1', '9:1:0']);

    const filled = interpolate(run.boxes);
    const withFill = write('cvat-video', { ...run, boxes: filled.boxes, interpolated: filled.interpolated }).toString();
    const keyframes = [...withFill.matchAll(/<box frame="(\d+)" keyframe="(\d)" outside="(\d)"/g)].map((m) =>
      m.slice(1).join(':'),
    );
    expect(keyframes).toEqual(['0:1:0', '1:1:0', '2:0:0', '3:0:0', '4:0:0', '5:1:0', '6:1:1', '9:1:0']);
  });

  it('round trips: read → write → read the same run, write → read → write the same bytes', () => {
    const first = toExport(read('cvat-video', fixture('cvat-video-1.1.xml')));
    const bytes = write('cvat-video', first);
    const second = toExport(read('cvat-video', bytes));
    expectSameTracks(tracksOf(second), tracksOf(first));
    expect(write('cvat-video', second).equals(bytes)).toBe(true);
  });

  it('escapes labels and names', () => {
    const run = exportRunOf(
      [{ id: '1', label: 'a "b" <c> & d', boxes: [{ frame: 0, x: 0, y: 0, w: 1, h: 1 }] }],
      media,
    );
    const back = tracksOf(toExport(read('cvat-video', write('cvat-video', run))));
    expect(back[0]!.label).toBe('a "b" <c> & d');
  });
});
