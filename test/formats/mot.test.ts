import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/formats/format-error.js';
import { importWarnings } from '../../src/formats/import-warnings.js';
import { rejectionPositions } from '../../src/formats/rejection-positions.js';
import { expectSameTracks, fixture, read, readInChunks, toExport, tracksOf, validate, write } from './helpers.js';

const MOT17 = { frameSize: { width: 1920, height: 1080 } };

describe('mot reader', () => {
  it('reads MOT17 ground truth: 1-based frames, class names, consider flag 0 not stored', () => {
    const result = read('mot', fixture('mot17-gt.txt'), { flavor: 'gt', ...MOT17 });
    expect(result.malformed).toEqual([]);
    expect(result.skipped.notObjects).toBe(2);
    expect(importWarnings(result.skipped).map((w) => [w.code, w.count])).toEqual([['ROWS_NOT_OBJECTS', 2]]);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.classId])).toEqual([
      ['2', 'pedestrian', 1],
      ['3', 'pedestrian', 1],
      ['4', 'pedestrian', 1],
      ['5', 'bicycle', 4],
      ['6', 'car', 3],
    ]);
    expect(tracks[0]!.boxes.map((b) => b.frame)).toEqual([0, 1, 2]);
    // 1338 / 1920 exactly as validateRun divides it; ground truth carries no confidence.
    expect(tracks[0]!.boxes[0]).toEqual({ frame: 0, x: 1338 / 1920, y: 418 / 1080, w: 167 / 1920, h: 379 / 1080 });
    // 1585 + 336 > 1920 and top -1: clamped into the frame, as for the JSON route.
    const edge = tracks[2]!.boxes[0]!;
    expect(edge.y).toBe(0);
    expect(edge.x + edge.w).toBeCloseTo(1, 12);
  });

  it('reads results: confidence kept, -1 as none', () => {
    const tracks = tracksOf(toExport(read('mot', fixture('mot-results.txt'), MOT17)));
    expect(tracks.map((t) => t.boxes.map((b) => b.confidence))).toEqual([[0.98, 0.97], [0.5]]);
    expect(tracks[0]!.boxes[0]!.x).toBe(912.5 / 1920);
  });

  it('splits lines across chunk boundaries the same at every chunk size', () => {
    const bytes = fixture('mot17-gt.txt');
    const whole = tracksOf(toExport(read('mot', bytes, { flavor: 'gt', ...MOT17 })));
    for (const size of [1, 2, 3, 7, 64]) {
      expect(tracksOf(toExport(readInChunks('mot', bytes, size, { flavor: 'gt', ...MOT17 })))).toEqual(whole);
    }
  });

  it('reads a row from its bytes as from its text (spaced fields take the text path)', () => {
    const field = fc.oneof(
      fc.integer({ min: -3, max: 30 }).map(String),
      fc.double({ min: -100, max: 3000, noNaN: true }).map(String),
      fc.double({ min: 0, max: 1, noNaN: true }).map((v) => v.toFixed(3)),
      fc.constantFrom('', 'x', '1e2', '3.0', '-0', '+4', '.5', '1.5.2', '0x1f', '-1'),
    );
    const row = fc.array(field, { minLength: 4, maxLength: 11 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 12 }), fc.constantFrom('gt', 'results'), (rows, flavor) => {
        const bytes = Buffer.from(rows.map((r) => r.join(',')).join('\n'));
        const spaced = Buffer.from(rows.map((r) => r.join(', ')).join('\n'));
        const options = { flavor: flavor as 'gt' | 'results', ...MOT17 };
        const [fast, text] = [bytes, spaced].map((b) => {
          try {
            const r = read('mot', b, options);
            // A message quotes the field as written, with its space.
            const malformed = r.malformed.map((m) => ({ ...m, detail: m.detail.replaceAll(' ', '') }));
            return { run: r.run, malformed, skipped: r.skipped };
          } catch (err) {
            return { error: String(err) };
          }
        });
        expect(fast).toEqual(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('reports every malformed row with its line and imports the rest', () => {
    const result = read('mot', fixture('mot-malformed.txt'), { flavor: 'gt', ...MOT17 });
    expect(result.malformed.map((m) => [m.position, m.trackId])).toEqual([
      [{ line: 2 }, null], // too few columns
      [{ line: 3 }, '3'], // text in the frame
      [{ line: 4 }, '4'], // text in a coordinate
      [{ line: 6 }, '6'], // a frame that is not an integer
      [{ line: 9 }, '7'], // a class MOT17 does not have
    ]);
    expect(result.malformed[0]!.detail).toMatch(/4 columns/);
    expect(result.malformed[4]!.detail).toMatch(/class "42"/);
    const validated = validate(result);
    // Rows the reader could read and validation then rejects keep their line too.
    expect(validated.rejected.toJSON()).toEqual([
      { trackId: '5', frame: 0, reason: 'box_non_positive_dimensions' },
      { trackId: '8', frame: -1, reason: 'box_invalid_frame' },
    ]);
    expect(rejectionPositions(result)).toEqual([{ line: 5 }, { line: 10 }]);
    // The duplicate (frame 2, id 1) keeps the last row, as POST /detections does, with a warning.
    expect(validated.warnings.map((w) => [w.code, w.count])).toEqual([['DUPLICATE_FRAME', 1]]);
    const track1 = tracksOf({ boxes: validated.boxes }).find((t) => t.id === '1')!;
    expect(track1.boxes.map((b) => [b.frame, b.x * 1920])).toEqual([
      [0, 912],
      [1, 901],
      [2, 902],
    ]);
  });

  it('refuses an empty file and needs a frame size', () => {
    expect(() => read('mot', fixture('empty.txt'), MOT17)).toThrowError(
      expect.objectContaining({ code: 'invalid_file', position: { line: 1 } }),
    );
    expect(() => read('mot', fixture('mot-results.txt'))).toThrow(FormatError);
    expect(() => read('mot', fixture('mot-results.txt'))).toThrowError(
      expect.objectContaining({ code: 'media_required' }),
    );
    // The recording's size is the last resort.
    const fromRecording = read('mot', fixture('mot-results.txt'), { recordingSize: { width: 1920, height: 1080 } });
    expect(fromRecording.run.media).toEqual({ width: 1920, height: 1080 });
  });
});

describe('mot writer', () => {
  it('writes ground truth back row for row (consider-0 rows aside)', () => {
    const run = toExport(read('mot', fixture('mot17-gt.txt'), { flavor: 'gt', ...MOT17 }));
    const text = write('mot', run, { flavor: 'gt' }).toString();
    expect(text.split('\n').slice(0, 3)).toEqual([
      '1,2,1338,418,167,379,1,1,1',
      '1,3,586,447,85,263,1,1,1',
      '1,4,1585,0,335,577,1,1,1',
    ]);
    expect(text).toContain('1,5,1163,441,33,89,1,4,1\n');
    expect(text).toContain('1,6,0,510,60,200,1,3,1\n');
  });

  it('round trips: read → write → read gives the same run, write → read → write the same bytes', () => {
    for (const [file, flavor] of [
      ['mot17-gt.txt', 'gt'],
      ['mot-results.txt', 'results'],
    ] as const) {
      const first = toExport(read('mot', fixture(file), { flavor, ...MOT17 }));
      const bytes = write('mot', first, { flavor });
      const second = toExport(read('mot', bytes, { flavor, ...MOT17 }));
      expectSameTracks(tracksOf(second), tracksOf(first));
      expect(write('mot', second, { flavor }).equals(bytes)).toBe(true);
    }
  });

  it('needs a frame size', () => {
    const run = toExport(read('mot', fixture('mot-results.txt'), MOT17));
    delete run.media;
    expect(() => write('mot', run)).toThrowError(expect.objectContaining({ code: 'media_required' }));
    expect(write('mot', run, { frameSize: { width: 1920, height: 1080 } }).toString()).toMatch(
      /^1,1,912.5,484.25,97,109,0.98,-1,-1,-1\n/,
    );
  });
});
