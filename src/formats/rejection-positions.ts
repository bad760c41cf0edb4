// Where each box that validateRun rejects came from. The validator lists rejections in input order (tracks in
// order, boxes in order) without saying which box; the same per-box checks are run here, in the same order, so that
// the n-th rejected box found here is the n-th rejection there.
import { normaliseGeometry, type NormalisedBox } from '../detections/box-geometry.js';
import { newBoxView, PackedBoxes } from '../detections/packed-boxes.js';
import { isObject } from '../util/is-object.js';
import type { Position, ReadResult } from './types.js';

/** The position of every box validateRun rejects, in the order of its rejection list, each handed to `each`. */
export function forEachRejectionPosition(read: ReadResult, each: (position: Position) => void): void {
  const { run } = read;
  const pixel = run.coordinateSpace === 'pixel';
  const scaleX = pixel ? Number(run.media?.width) : 1;
  const scaleY = pixel ? Number(run.media?.height) : 1;
  const geometry: NormalisedBox = { x: 0, y: 0, w: 0, h: 0, form: 'xywh' };
  const view = newBoxView();
  run.tracks.forEach((track, t) => {
    const boxes = track.boxes;
    for (let b = 0; b < boxes.length; b++) {
      const box: unknown = boxes instanceof PackedBoxes ? boxes.load(b, view) : boxes[b];
      const bad =
        !isObject(box) ||
        !Number.isInteger(box.frame) ||
        (box.frame as number) < 0 ||
        normaliseGeometry(box, scaleX, scaleY, geometry) !== undefined;
      if (bad) each(read.positionOf(t, b));
    }
  });
}

/** The positions as an array: for tests and small runs. */
export function rejectionPositions(read: ReadResult): Position[] {
  const out: Position[] = [];
  forEachRejectionPosition(read, (p) => out.push(p));
  return out;
}
