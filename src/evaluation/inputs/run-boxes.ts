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
  const f: number[] = [];
  const ids: number[] = [];
  const boxes: number[] = [];
  const classes: number[] = [];
  const scores: number[] = [];
  let at = 0;
  headers.forEach((h, t) => {
    for (let i = 0; i < h.n; i++, at++) {
      const o = at * BOX_STRIDE;
      const frame = columns[o]!;
      if (frame >= frames)
        throw new InputError(
          side.file,
          undefined,
          `track "${h.id}": frame ${frame} is past the media's frameCount ${frames}`,
        );
      f.push(frame);
      // Track ids are text in a run; the metrics need numbers, and only their identity matters.
      ids.push(t);
      boxes.push(
        columns[o + 1]! * scale.w,
        columns[o + 2]! * scale.h,
        columns[o + 3]! * scale.w,
        columns[o + 4]! * scale.h,
      );
      const label = h.extras?.[i]?.label;
      classes.push(classOf(typeof label === 'string' ? label : (h.label ?? 'object')));
      const conf = columns[o + 5]!;
      scores.push(Number.isNaN(conf) ? (h.confidence ?? 1) : conf);
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
