import { describe, expect, it } from 'vitest';
import { cocoEvaluate, cocoSummarize, IOU_THRESHOLDS, RECALL_THRESHOLDS } from '../../src/evaluation/coco.js';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { ALPHAS } from '../../src/evaluation/hota.js';
import { cocoIou, trackEvalIou } from '../../src/evaluation/iou.js';
import { boxSetFromRows, emptyBoxSet, type SequenceInput } from '../../src/evaluation/layout.js';
import { preprocessMotChallenge } from '../../src/evaluation/mot-challenge.js';
import { trackingSequences } from './fixtures.js';

describe('IoU', () => {
  it('TrackEval: touching and empty boxes score 0, containment the area ratio', () => {
    const a = Float64Array.from([0, 0, 10, 10, 0, 0, 0, 5]);
    const b = Float64Array.from([10, 0, 10, 10, 0, 0, 10, 5, 0, 0, 0, 5]);
    const out = new Float64Array(6);
    trackEvalIou(a, 0, 2, b, 0, 3, out);
    expect(Array.from(out)).toEqual([0, 0.5, 0, 0, 0, 0]);
  });

  it('pycocotools: a crowd ground truth divides by the detection area only', () => {
    const dt = Float64Array.from([0, 0, 10, 10]);
    const gt = Float64Array.from([5, 0, 100, 100, 5, 0, 100, 100]);
    const out = new Float64Array(2);
    cocoIou(dt, 1, gt, 2, Uint8Array.from([1, 0]), out);
    expect(out[0]).toBe(0.5);
    expect(out[1]).toBe(50 / (100 + 10000 - 50));
  });

  it('thresholds are NumPy’s values', () => {
    expect(ALPHAS[2]).toBe(0.15000000000000002);
    expect(ALPHAS[18]).toBe(0.9500000000000001);
    expect(IOU_THRESHOLDS[8]).toBe(0.8999999999999999);
    expect(IOU_THRESHOLDS[5]).toBe(0.75);
    expect(RECALL_THRESHOLDS[100]).toBe(1);
  });
});

describe('evaluate', () => {
  it('per-frame CLEAR counts add up to the totals over classes', () => {
    const { meta, sequences } = trackingSequences();
    const r = evaluate(sequences, { classNames: meta.classes, frames: true });
    for (const s of r.sequences) {
      const sum = (a: Int32Array) => a.reduce((x, y) => x + y, 0);
      expect(sum(s.frames!.tp)).toBe(s.combined.CLR_TP);
      expect(sum(s.frames!.fp)).toBe(s.combined.CLR_FP);
      expect(sum(s.frames!.fn)).toBe(s.combined.CLR_FN);
      expect(sum(s.frames!.idsw)).toBe(s.combined.IDSW);
    }
  });

  it('one class: combined, detAveraged and the class agree', () => {
    const { sequences } = trackingSequences(true);
    const r = evaluate(sequences, { classNames: ['all'], metrics: ['hota', 'clear', 'identity', 'count', 'coco'] });
    expect(r.combined).toEqual(r.classes.all);
    expect(r.detAveraged).toEqual(r.classes.all);
  });

  it('COCO: without a pixel size the area-range figures are −1', () => {
    const { sequences } = trackingSequences(true);
    const r = evaluate(
      sequences.map((s) => ({ ...s, pixelSize: false })),
      { classNames: ['all'], metrics: ['coco'] },
    );
    expect(r.combined).toMatchObject({ APs: -1, APm: -1, APl: -1, ARs: -1, ARm: -1, ARl: -1 });
    expect(r.combined.AP).toBeGreaterThan(0);
  });

  it('COCO: no ground truth at all gives −1 everywhere', () => {
    const pred = boxSetFromRows(1, [0], [1], [0, 0, 10, 10], [0], [0.5]);
    const ev = cocoEvaluate({
      imageIds: [1],
      categoryIds: [1],
      gt: {
        imageIds: new Int32Array(0),
        categoryIds: new Int32Array(0),
        boxes: new Float64Array(0),
        areas: new Float64Array(0),
        isCrowd: new Uint8Array(0),
        ids: new Float64Array(0),
      },
      dt: { imageIds: Int32Array.of(1), categoryIds: Int32Array.of(1), boxes: pred.boxes, scores: pred.confidences },
    });
    expect(Object.values(cocoSummarize(ev))).toEqual(new Array(12).fill(-1));
  });

  it('COCO: a result on an image the ground truth lacks is refused, as by loadRes', () => {
    const none = { imageIds: new Int32Array(0), categoryIds: new Int32Array(0), boxes: new Float64Array(0) };
    const gt = { ...none, areas: new Float64Array(0), isCrowd: new Uint8Array(0), ids: new Float64Array(0) };
    const dt = {
      imageIds: Int32Array.of(9),
      categoryIds: Int32Array.of(1),
      boxes: new Float64Array(4),
      scores: Float64Array.of(1),
    };
    expect(() => cocoEvaluate({ imageIds: [1], categoryIds: [1], gt, dt })).toThrow(/not in the ground truth/);
  });
});

describe('MOTChallenge preprocessing', () => {
  // Frame 0: a pedestrian, a static person (distractor), a car, a zero-marked pedestrian, a non-MOT vehicle.
  const gtRows = [
    [1, 0, 1, 1],
    [2, 100, 7, 1],
    [3, 200, 3, 1],
    [4, 300, 1, 0],
    [5, 400, 6, 1],
  ];
  const seq = (): SequenceInput => ({
    name: 'm',
    numFrames: 1,
    gt: boxSetFromRows(
      1,
      gtRows.map(() => 0),
      gtRows.map((r) => r[0]!),
      gtRows.flatMap((r) => [r[1]!, 0, 50, 100]),
      gtRows.map((r) => r[2]!),
      gtRows.map((r) => r[3]!),
    ),
    // One prediction on each gt box, slightly shifted (IoU > 0.5), and one on nothing.
    pred: boxSetFromRows(
      1,
      [0, 0, 0, 0, 0, 0],
      [1, 2, 3, 4, 5, 6],
      [2, 0, 50, 100, 102, 0, 50, 100, 202, 0, 50, 100, 302, 0, 50, 100, 402, 0, 50, 100, 900, 0, 50, 100],
      [0, 0, 0, 0, 0, 0],
      [1, 1, 1, 1, 1, 1],
    ),
  });

  it('MOT17 drops predictions on distractors and keeps pedestrians not marked zero', () => {
    const out = preprocessMotChallenge(seq(), 'mot17');
    expect(Array.from(out.gt.ids)).toEqual([1]);
    // The static person's prediction goes; those on the car, the zero-marked pedestrian and the non-MOT vehicle stay.
    expect(Array.from(out.pred.ids)).toEqual([1, 3, 4, 5, 6]);
  });

  it('MOT20 also counts non-MOT vehicles as distractors', () => {
    const out = preprocessMotChallenge(seq(), 'mot20');
    expect(Array.from(out.pred.ids)).toEqual([1, 3, 4, 6]);
  });

  it('refuses a class outside MOTChallenge’s', () => {
    const bad = { ...seq(), gt: { ...seq().gt, classes: Int32Array.of(1, 14, 1, 1, 1) } };
    expect(() => preprocessMotChallenge(bad, 'mot17')).toThrow(/not a MOTChallenge class/);
  });

  it('refuses an id twice in a timestep, even on a box it would drop', () => {
    const twice = { ...seq(), gt: { ...seq().gt, ids: Int32Array.of(1, 2, 3, 4, 1) } };
    expect(() => preprocessMotChallenge(twice, 'mot17')).toThrow(/twice/);
  });

  it('an empty prediction scores as misses', () => {
    const empty = { ...seq(), pred: emptyBoxSet(1) };
    const r = evaluate([preprocessMotChallenge(empty, 'mot17')], { classNames: ['pedestrian'] });
    expect(r.combined).toMatchObject({ CLR_FN: 1, CLR_TP: 0, MOTA: 0, HOTA: 0, IDF1: 0 });
  });
});
