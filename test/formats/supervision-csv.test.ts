import { describe, expect, it } from 'vitest';
import { expectSameTracks, fixture, read, readInChunks, toExport, tracksOf, write } from './helpers.js';

const SIZE = { frameSize: { width: 1280, height: 720 } };

describe('supervision-csv', () => {
  it('reads a CSVSink file with custom columns: frame_index, class_name, quoted fields', () => {
    const result = read('supervision-csv', fixture('supervision-csvsink.csv'), SIZE);
    expect(result.malformed).toEqual([]);
    // Line 6 has an empty tracker_id: a track of its own.
    expect(result.skipped.untracked).toBe(1);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.classId, t.boxes.map((b) => [b.frame, b.confidence])])).toEqual([
      [
        '1',
        'person',
        0,
        [
          [0, 0.9123],
          [1, 0.91],
        ],
      ],
      [
        '2',
        'car',
        2,
        [
          [0, 0.8],
          [1, 0.79],
        ],
      ],
      ['untracked-1', 'person', 0, [[1, 0.3]]],
    ]);
    expect(tracks[0]!.boxes[0]).toMatchObject({ x: 123.5 / 1280, w: 76.5 / 1280 });
    expect(tracksOf(toExport(readInChunks('supervision-csv', fixture('supervision-csvsink.csv'), 3, SIZE)))).toEqual(
      tracks,
    );
  });

  it('takes `frame` when there is no frame_index, and a quoted field over two lines', () => {
    const text =
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name,frame\n1,2,3,4,0,0.5,9,"two\nlines",7\n';
    const tracks = tracksOf(toExport(read('supervision-csv', Buffer.from(text), SIZE)));
    expect(tracks).toMatchObject([{ id: '9', label: 'two\nlines', boxes: [{ frame: 7 }] }]);
  });

  it('refuses a file without a frame column, a header, or rows', () => {
    const bad = (text: string) => () => read('supervision-csv', Buffer.from(text), SIZE);
    expect(bad('x_min,y_min,x_max,y_max,class_id,confidence,tracker_id\n1,2,3,4,0,0.5,1\n')).toThrowError(
      expect.objectContaining({ code: 'invalid_file', position: { line: 1 } }),
    );
    expect(bad('')).toThrowError(/no header/);
    expect(bad('x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n')).toThrowError(/no rows/);
  });

  it('reports short rows and text in numbers by line', () => {
    const text =
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n1,2,3\n1,b,3,4,0,0.5,1,0\n1,2,3,4,0,0.5,1,0.5\n1,2,3,4,0,0.5,1,0\n';
    const result = read('supervision-csv', Buffer.from(text), SIZE);
    expect(result.malformed.map((m) => m.position)).toEqual([{ line: 2 }, { line: 3 }, { line: 4 }]);
  });

  it('round trips: read → write → read the same run, write → read → write the same bytes', () => {
    const first = toExport(read('supervision-csv', fixture('supervision-csvsink.csv'), SIZE));
    const bytes = write('supervision-csv', first);
    expect(bytes.toString().split('\n').slice(0, 2)).toEqual([
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name,frame_index',
      '123.5,45.25,200,300.75,0,0.9123,1,person,0',
    ]);
    const second = toExport(read('supervision-csv', bytes, SIZE));
    expectSameTracks(tracksOf(second), tracksOf(first));
    expect(write('supervision-csv', second).equals(bytes)).toBe(true);
  });
});
