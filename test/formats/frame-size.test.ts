import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseGeometry, type NormalisedBox } from '../../src/detections/box-geometry.js';
import { resolveFrameSize, toNormalised, toPixels } from '../../src/formats/frame-size.js';
import { pixelText, parseNumber } from '../../src/formats/numbers.js';

describe('frame size', () => {
  it("takes the file's own, else the request's, else the recording's; none is media_required", () => {
    const file = { width: 1280, height: 720 };
    const given = { width: 640, height: 480 };
    const recording = { width: 1920, height: 1080 };
    expect(resolveFrameSize(file, given, recording)).toEqual(file);
    expect(resolveFrameSize(undefined, given, recording)).toEqual(given);
    expect(resolveFrameSize({ width: 1280 }, { height: 5 }, recording)).toEqual(recording);
    expect(() => resolveFrameSize(undefined, { width: 0, height: 10 }, undefined)).toThrowError(
      expect.objectContaining({ code: 'media_required' }),
    );
  });

  it('pixel → normalised → pixel text → normalised is exact to 1e-9, and agrees with validateRun', () => {
    const out: NormalisedBox = { x: 0, y: 0, w: 0, h: 0, form: 'xywh' };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8192 }), fc.double({ min: 0, max: 1, noNaN: true }), (extent, unit) => {
        const pixels = toPixels(unit, extent);
        const back = toNormalised(parseNumber(pixelText(pixels)), extent);
        expect(Math.abs(back - unit)).toBeLessThanOrEqual(1e-9);
        // The same division validateRun makes, so that a reader's pixels and the stored run agree to the bit.
        normaliseGeometry({ x1: 0, y1: 0, x2: pixels || 1, y2: 1 }, extent, 1, out);
        expect(out.w).toBe(toNormalised(pixels || 1, extent));
      }),
    );
  });
});
