/**
 * Two stored-form runs (ground truth and prediction of one recording) into one sequence of the engine's input. A
 * box's class is its label, else its track's, else `object`; its score its confidence, else its track's, else 1.
 * Boxes are scaled to pixels by the run's media size (the other run's when it has none); without either, IoU is the
 * same on normalised coordinates and only the COCO area ranges are lost.
 */
import type { RunBoxes } from '../../detections/run-types.js';
import { BOX_STRIDE } from '../../detections/run-types.js';
import { type BoxSet, boxSetFromRows, type SequenceInput } from '../layout.js';
import { InputError } from './input-error.js';

export interface RunSide {
  file: string;
  boxes: RunBoxes;
  media?: Record<string, unknown>;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined);

interface Scale {
  w: number;
  h: number;
}

function sideBoxes(side: RunSide, frames: number, scale: Scale, classOf: (name: string) => number): BoxSet {
  const { headers, columns } = side.boxes;
  let count = 0;
  for (const h of headers) count += h.n;
  // Typed arrays of the known size: a run holds up to 250 000 boxes, and growing plain arrays box by box cost more
  // than the rest of this conversion.
  const f = new Float64Array(count);
  const ids = new Int32Array(count);
  const boxes = new Float64Array(count * 4);
  const classes = new Int32Array(count);
  const scores = new Float64Array(count);
  let at = 0;
  headers.forEach((h, t) => {
    // Looked up at the first box that takes it, so that classes keep their order of first use box by box.
    let trackClass = -1;
    const trackScore = h.confidence ?? 1;
    for (let i = 0; i < h.n; i++, at++) {
      const o = at * BOX_STRIDE;
      const frame = columns[o]!;
      if (frame >= frames)
        throw new InputError(
          side.file,
          undefined,
          `track "${h.id}": frame ${frame} is past the media's frameCount ${frames}`,
        );
      f[at] = frame;
      // Track ids are text in a run; the metrics need numbers, and only their identity matters.
      ids[at] = t;
      boxes[at * 4] = columns[o + 1]! * scale.w;
      boxes[at * 4 + 1] = columns[o + 2]! * scale.h;
      boxes[at * 4 + 2] = columns[o + 3]! * scale.w;
      boxes[at * 4 + 3] = columns[o + 4]! * scale.h;
      const label = h.extras?.[i]?.label;
      if (typeof label === 'string') classes[at] = classOf(label);
      else {
        if (trackClass === -1) trackClass = classOf(h.label ?? 'object');
        classes[at] = trackClass;
      }
      const conf = columns[o + 5]!;
      scores[at] = Number.isNaN(conf) ? trackScore : conf;
    }
  });
  return boxSetFromRows(frames, f, ids, boxes, classes, scores);
}

function lastFrame(boxes: RunBoxes): number {
  let last = -1;
  for (let k = 0; k < boxes.count; k++) last = Math.max(last, boxes.columns[k * BOX_STRIDE]!);
  return last;
}

export function runSequence(
  name: string,
  gt: RunSide,
  pred: RunSide,
): { sequence: SequenceInput; classNames: string[] } {
  const frameCount = gt.media?.frameCount ?? pred.media?.frameCount;
  const frames = typeof frameCount === 'number' ? frameCount : Math.max(lastFrame(gt.boxes), lastFrame(pred.boxes)) + 1;
  const names: string[] = [];
  const index = new Map<string, number>();
  const classOf = (label: string): number => {
    let c = index.get(label);
    if (c === undefined) {
      c = names.length;
      index.set(label, c);
      names.push(label);
    }
    return c;
  };
  const size = (side: RunSide) => {
    const w = positive(side.media?.width);
    const h = positive(side.media?.height);
    return w && h ? { w, h } : undefined;
  };
  const gtSize = size(gt) ?? size(pred);
  const predSize = size(pred) ?? size(gt);
  const unit = { w: 1, h: 1 };
  const sequence: SequenceInput = {
    name,
    numFrames: frames,
    gt: sideBoxes(gt, frames, gtSize ?? unit, classOf),
    pred: sideBoxes(pred, frames, predSize ?? unit, classOf),
    pixelSize: gtSize !== undefined,
  };
  if (names.length === 0) names.push('object');
  return { sequence, classNames: names };
}
