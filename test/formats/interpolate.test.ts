import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/formats/interpolate.js';
import { exportRunOf, tracksOf } from './helpers.js';

describe('interpolate', () => {
  it('fills exactly the frames between two consecutive boxes of a track, linearly, without confidence', () => {
    const run = exportRunOf([
      {
        id: 'a',
        boxes: [
          { frame: 2, x: 0, y: 0, w: 0.2, h: 0.2, confidence: 0.9 },
          { frame: 6, x: 0.4, y: 0.8, w: 0.6, h: 0.2, confidence: 0.8 },
          { frame: 7, x: 0.4, y: 0.8, w: 0.6, h: 0.2 },
        ],
      },
      { id: 'b', boxes: [{ frame: 0, x: 0.5, y: 0.5, w: 0.1, h: 0.1 }] },
    ]);
    const { boxes, interpolated } = interpolate(run.boxes);
    const tracks = tracksOf({ boxes });
    expect(tracks[0]!.boxes.map((b) => b.frame)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(tracks[0]!.boxes[2]).toEqual({ frame: 4, x: 0.2, y: 0.4, w: 0.4, h: 0.2 });
    expect(tracks[0]!.boxes[0]!.confidence).toBe(0.9);
    expect(tracks[1]!.boxes.map((b) => b.frame)).toEqual([0]);
    expect([...interpolated]).toEqual([0, 1, 1, 1, 0, 0, 0]);
    expect(boxes.headers.map((h) => h.n)).toEqual([6, 1]);
  });

  it('keeps per-box classes on their boxes, and marks the filled boxes in the extras that are stored', () => {
    const run = exportRunOf([
      {
        id: 'a',
        boxes: [
          { frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 },
          { frame: 3, x: 0, y: 0, w: 0.1, h: 0.1 },
        ],
      },
    ]);
    run.boxes.headers[0]!.extras = { 1: { label: 'late' } };
    expect(interpolate(run.boxes).boxes.headers[0]!.extras).toEqual({
      1: { interpolated: true },
      2: { interpolated: true },
      3: { label: 'late' },
    });
  });

  it('for any track: every frame from first to last once, originals unchanged, filled ones between their neighbours', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (frames, x0) => {
          frames.sort((a, b) => a - b);
          const boxes = frames.map((frame, i) => ({
            frame,
            x: x0 + (i % 2) * 0.25,
            y: 0,
            w: 0.25,
            h: 0.5,
            confidence: 0.5,
          }));
          const { boxes: out, interpolated } = interpolate(exportRunOf([{ id: 't', boxes }]).boxes);
          const filled = tracksOf({ boxes: out })[0]!.boxes;
          const first = frames[0]!;
          expect(filled.map((b) => b.frame)).toEqual(
            Array.from({ length: frames.at(-1)! - first + 1 }, (_, k) => first + k),
          );
          filled.forEach((b, k) => {
            const original = frames.indexOf(b.frame);
            expect(interpolated[k]).toBe(original === -1 ? 1 : 0);
            if (original !== -1) expect(b).toEqual(boxes[original]);
            else {
              expect(b.confidence).toBeUndefined();
              expect(b.x).toBeGreaterThanOrEqual(x0 - 1e-12);
              expect(b.x).toBeLessThanOrEqual(x0 + 0.25 + 1e-12);
            }
          });
        },
      ),
    );
  });
});
