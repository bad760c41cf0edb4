/**
 * Scores a set of sequences for a set of classes: each class on its own, sequences combined as TrackEval's
 * `combine_sequences`, classes as `combine_classes_det_averaged` / `combine_classes_class_averaged`, and COCO over
 * every frame of every sequence as one image each.
 */
import {
  type ClearResult,
  clearCombineClassAveraged,
  clearCombineDetAveraged,
  clearCombineSequences,
  clearSequence,
  type FrameCounts,
} from './clear.js';
import { type CocoStats, cocoEvaluate, cocoSummarize } from './coco.js';
import { type CountResult, countCombine, countSequence } from './count.js';
import { type Fields, type MetricResults, toFields } from './fields.js';
import {
  type HotaResult,
  hotaCombineClassAveraged,
  hotaCombineDetAveraged,
  hotaCombineSequences,
  hotaSequence,
} from './hota.js';
import {
  type IdentityResult,
  identityCombineClassAveraged,
  identityCombineDetAveraged,
  identityCombineSequences,
  identitySequence,
} from './identity.js';
import { classAgnostic, type SequenceInput, splitByClass } from './layout.js';
import { sequencesToCoco } from './video-coco.js';
import { trackingData } from './tracking-data.js';

export type MetricName = 'hota' | 'clear' | 'identity' | 'count' | 'coco';

export interface EvaluateOptions {
  /** Names of the class indices used in the boxes. */
  classNames: readonly string[];
  /** Default: hota, clear, identity, count. */
  metrics?: readonly MetricName[];
  /** IoU threshold of CLEAR and Identity (default 0.5). */
  iouThreshold?: number;
  /** Collect the per-frame CLEAR counts of each sequence (all classes added up). */
  frames?: boolean;
  /** Score every box as one class named `all`, whatever its class. */
  classAgnostic?: boolean;
}

export interface SequenceResult {
  name: string;
  combined: Fields;
  classes: Record<string, Fields>;
  frames?: FrameCounts;
}

export interface EvaluationResult {
  sequences: SequenceResult[];
  combined: Fields;
  classes: Record<string, Fields>;
  classAveraged: Fields;
  detAveraged: Fields;
}

interface PerClass {
  hota?: HotaResult;
  clear?: ClearResult;
  identity?: IdentityResult;
  count?: CountResult;
}

function combineDet(results: readonly PerClass[], has: Set<MetricName>): MetricResults {
  return {
    hota: has.has('hota') ? hotaCombineDetAveraged(results.map((r) => r.hota!)) : undefined,
    clear: has.has('clear') ? clearCombineDetAveraged(results.map((r) => r.clear!)) : undefined,
    identity: has.has('identity') ? identityCombineDetAveraged(results.map((r) => r.identity!)) : undefined,
    count: has.has('count') ? countCombine(results.map((r) => r.count!)) : undefined,
  };
}

function cocoStats(sequences: readonly SequenceInput[], classCount: number): { all: CocoStats; per: CocoStats[] } {
  const ev = cocoEvaluate(sequencesToCoco(sequences, classCount));
  const noArea = sequences.some((s) => s.pixelSize === false);
  const blank = (s: CocoStats): CocoStats =>
    noArea ? { ...s, APs: -1, APm: -1, APl: -1, ARs: -1, ARm: -1, ARl: -1 } : s;
  const per: CocoStats[] = [];
  for (let c = 0; c < classCount; c++) per.push(blank(cocoSummarize(ev, [c + 1])));
  return { all: blank(cocoSummarize(ev)), per };
}

export function evaluate(input: readonly SequenceInput[], options: EvaluateOptions): EvaluationResult {
  const sequences = options.classAgnostic ? input.map(classAgnostic) : input;
  const has = new Set<MetricName>(options.metrics ?? ['hota', 'clear', 'identity', 'count']);
  const threshold = options.iouThreshold ?? 0.5;
  const names = options.classAgnostic ? ['all'] : options.classNames;
  const C = names.length;
  const perSeq: PerClass[][] = [];
  const out: SequenceResult[] = [];
  let lastCoco: ReturnType<typeof cocoStats> | undefined;

  for (const seq of sequences) {
    const frames: FrameCounts | undefined = options.frames
      ? {
          tp: new Int32Array(seq.numFrames),
          fp: new Int32Array(seq.numFrames),
          fn: new Int32Array(seq.numFrames),
          idsw: new Int32Array(seq.numFrames),
        }
      : undefined;
    const results: PerClass[] = [];
    const gtByClass = splitByClass(seq.gt, C);
    const predByClass = splitByClass(seq.pred, C);
    for (let c = 0; c < C; c++) {
      const data = trackingData(gtByClass[c]!, predByClass[c]!);
      results.push({
        hota: has.has('hota') ? hotaSequence(data) : undefined,
        clear: has.has('clear') || frames ? clearSequence(data, threshold, frames) : undefined,
        identity: has.has('identity') ? identitySequence(data, threshold) : undefined,
        count: has.has('count') ? countSequence(data) : undefined,
      });
    }
    perSeq.push(results);
    const coco = has.has('coco') ? cocoStats([seq], C) : undefined;
    lastCoco = coco;
    const classes: Record<string, Fields> = {};
    for (let c = 0; c < C; c++) {
      const r = results[c]!;
      classes[names[c]!] = toFields({
        ...r,
        clear: has.has('clear') ? r.clear : undefined,
        coco: coco?.per[c],
      });
    }
    out.push({
      name: seq.name,
      combined: toFields({ ...combineDet(results, has), coco: coco?.all }),
      classes,
      ...(frames ? { frames } : {}),
    });
  }

  const byClass: PerClass[] = [];
  for (let c = 0; c < C; c++) {
    const col = perSeq.map((r) => r[c]!);
    byClass.push({
      hota: has.has('hota') ? hotaCombineSequences(col.map((r) => r.hota!)) : undefined,
      clear: has.has('clear') ? clearCombineSequences(col.map((r) => r.clear!)) : undefined,
      identity: has.has('identity') ? identityCombineSequences(col.map((r) => r.identity!)) : undefined,
      count: has.has('count') ? countCombine(col.map((r) => r.count!)) : undefined,
    });
  }
  // One sequence: its own COCO figures are the whole input's (the same images and boxes), computed once.
  const coco = has.has('coco') ? (sequences.length === 1 ? lastCoco : cocoStats(sequences, C)) : undefined;
  const classes: Record<string, Fields> = {};
  for (let c = 0; c < C; c++) classes[names[c]!] = toFields({ ...byClass[c]!, coco: coco?.per[c] });
  const detAveraged = toFields({ ...combineDet(byClass, has), coco: coco?.all });
  const classAveraged = toFields({
    hota: has.has('hota') ? hotaCombineClassAveraged(byClass.map((r) => r.hota!)) : undefined,
    clear: has.has('clear') ? clearCombineClassAveraged(byClass.map((r) => r.clear!)) : undefined,
    identity: has.has('identity') ? identityCombineClassAveraged(byClass.map((r) => r.identity!)) : undefined,
    count: has.has('count') ? countCombine(byClass.map((r) => r.count!)) : undefined,
    coco: coco?.all,
  });
  return { sequences: out, combined: detAveraged, classes, classAveraged, detAveraged };
}
