// sightline eval: scores prediction files against ground-truth files offline, with the same engine as the server.
import path from 'node:path';
import { cocoEvaluate, cocoSummarize } from '../../evaluation/coco.js';
import { type EvaluationResult, evaluate, type MetricName } from '../../evaluation/evaluate.js';
import type { Fields } from '../../evaluation/fields.js';
import { cocoEvaluationInput } from '../../evaluation/inputs/coco-files.js';
import { InputError } from '../../evaluation/inputs/input-error.js';
import { motEvaluationInput } from '../../evaluation/inputs/mot-sequences.js';
import type { SequenceInput } from '../../evaluation/layout.js';
import type { MotBenchmark } from '../../evaluation/mot-challenge.js';
import { resultTable } from '../../evaluation/table.js';
import { type FlagValue, UsageError, stringFlag } from '../args.js';
import type { CommandTable } from '../command.js';
import { motFiles, readText } from './eval-files.js';

const FORMATS = ['mot', 'coco', 'cvat-video', 'sightline'] as const;
type EvalFormat = (typeof FORMATS)[number];
const METRICS = ['hota', 'clear', 'identity', 'coco'] as const;
const BENCHMARKS = ['none', 'mot17', 'mot20'] as const;

interface Options {
  gt: string;
  pred: string;
  format: EvalFormat;
  metrics: MetricName[];
  iou: number;
  classAgnostic: boolean;
  benchmark: MotBenchmark | 'none';
}

function oneOf<T extends string>(
  flags: Record<string, FlagValue>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = stringFlag(flags, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function options(flags: Record<string, FlagValue>): Options {
  const format = oneOf(flags, 'format', FORMATS, 'mot');
  const metricText = stringFlag(flags, 'metrics') ?? (format === 'coco' ? 'coco' : 'hota,clear,identity');
  const metrics = [...new Set(metricText.split(',').map((m) => m.trim()))];
  for (const m of metrics) {
    if (!(METRICS as readonly string[]).includes(m))
      throw new UsageError(`--metrics: unknown metric "${m}" (choose from ${METRICS.join(', ')})`);
  }
  if (format === 'coco' && metrics.some((m) => m !== 'coco'))
    throw new UsageError('--format coco scores detections only: --metrics coco');
  const iouText = stringFlag(flags, 'iou') ?? '0.5';
  const iou = /^(\d+\.?\d*|\.\d+)$/.test(iouText) ? Number(iouText) : Number.NaN;
  if (!(iou > 0 && iou <= 1)) throw new UsageError(`--iou must be a number in (0, 1], got "${iouText}"`);
  const benchmark = oneOf(flags, 'benchmark', BENCHMARKS, 'none');
  if (benchmark !== 'none' && format !== 'mot') throw new UsageError('--benchmark applies to --format mot only');
  const classAgnostic = flags['class-agnostic'] === true;
  if (classAgnostic && format === 'coco') throw new UsageError('--class-agnostic does not apply to --format coco');
  // TrackEval's counts (Dets, GT_IDs, …) come with every tracking metric, as in its own output.
  const chosen = metrics as MetricName[];
  const withCount = chosen.some((m) => m !== 'coco') ? [...chosen, 'count' as const] : chosen;
  return {
    gt: stringFlag(flags, 'gt', true),
    pred: stringFlag(flags, 'pred', true),
    format,
    metrics: withCount,
    iou,
    classAgnostic,
    benchmark,
  };
}

/** pycocotools over a COCO instances file and results file, in the evaluator's result shape. */
function cocoResult(o: Options): EvaluationResult {
  const { input, categoryNames } = cocoEvaluationInput(readText(o.gt), o.gt, readText(o.pred), o.pred);
  const ev = cocoEvaluate(input);
  const all: Fields = { ...cocoSummarize(ev) };
  const classes: Record<string, Fields> = {};
  Array.from(input.categoryIds).forEach((id, i) => {
    classes[categoryNames[i]!] = { ...cocoSummarize(ev, [id]) };
  });
  const name = path.basename(o.gt, path.extname(o.gt));
  return {
    sequences: [{ name, combined: all, classes }],
    combined: all,
    classes,
    classAveraged: all,
    detAveraged: all,
  };
}

async function trackingResult(o: Options, format: Exclude<EvalFormat, 'coco'>): Promise<EvaluationResult> {
  let sequences: SequenceInput[];
  let classNames: string[];
  let agnostic = o.classAgnostic;
  if (format === 'mot') {
    const input = motEvaluationInput(motFiles(o.gt, o.pred), o.benchmark);
    sequences = input.sequences;
    classNames = input.classNames;
    agnostic ||= input.classAgnostic;
  } else {
    // Loaded only here: the format readers and the run validator are not needed for MOTChallenge files.
    const { runFiles } = await import('./eval-runs.js');
    const input = runFiles(format, o.gt, o.pred);
    sequences = [input.sequence];
    classNames = input.classNames;
  }
  return evaluate(sequences, { classNames, metrics: o.metrics, iouThreshold: o.iou, classAgnostic: agnostic });
}

export const evalCommands: CommandTable = {
  eval: {
    usage:
      'eval --gt <path> --pred <path> [--format mot|coco|cvat-video|sightline] [--metrics hota,clear,identity,coco] ' +
      '[--iou 0.5] [--class-agnostic] [--benchmark none|mot17|mot20] [--json]   (scores predictions offline; ' +
      'see docs/evaluation.md)',
    offline: true,
    async run({ flags, json, io }) {
      const o = options(flags);
      let result: EvaluationResult;
      try {
        result = o.format === 'coco' ? cocoResult(o) : await trackingResult(o, o.format);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        io.stderr.write(`sightline eval: ${err.message}\n`);
        return 2;
      }
      io.stdout.write(json ? `${JSON.stringify(result)}\n` : `${resultTable(result, o.metrics)}\n`);
      return 0;
    },
  },
};
