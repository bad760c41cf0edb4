// The body of POST /evaluations, checked field by field so that each refusal names its field (400 invalid_field);
// a body that is no JSON object at all is 400 invalid_body.
import { ApiError } from '../http/problem.js';
import { parseTimeRange } from '../recordings/page-params.js';
import { isObject } from '../util/is-object.js';
import type { MetricName } from './evaluate.js';

export const EVALUATION_METRICS = ['hota', 'clear', 'identity', 'coco'] as const;
export const MAX_PREDICTIONS = 20;
/** Recordings one evaluation may cover: every one's runs are read into memory together. */
export const MAX_RECORDINGS = 1000;

export type Selector = { sourceName: string; sourceVersion?: string };
export type RunChoice = string | Selector;

export type RecordingChoice =
  | { kind: 'one'; mediaKey?: string; analysisId?: string }
  | { kind: 'keys'; mediaKeys: string[] }
  | { kind: 'filter'; device?: string; from?: number; to?: number }
  | { kind: 'all' };

export interface EvaluationParameters {
  metrics: MetricName[];
  iouThreshold: number;
  classAgnostic: boolean;
}

export interface EvaluationRequest {
  recordings: RecordingChoice;
  groundTruth: RunChoice;
  predictions: RunChoice[];
  parameters: EvaluationParameters;
}

const KEYS = new Set([
  'mediaKey',
  'analysisId',
  'groundTruth',
  'predictions',
  'recordings',
  'metrics',
  'iouThreshold',
  'classAgnostic',
]);

const fieldError = (field: string, detail: string) => new ApiError(400, 'invalid_field', detail, { field });

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw fieldError(field, `${field} must be a non-empty string`);
  return value;
}

function runChoice(value: unknown, field: string): RunChoice {
  if (typeof value === 'string') return text(value, field);
  if (!isObject(value))
    throw fieldError(field, `${field} must be a runId or a selector { "sourceName", "sourceVersion"? }`);
  for (const key of Object.keys(value)) {
    if (key !== 'sourceName' && key !== 'sourceVersion')
      throw fieldError(`${field}.${key}`, `${field} takes sourceName and sourceVersion only, got "${key}"`);
  }
  const selector: Selector = { sourceName: text(value.sourceName, `${field}.sourceName`) };
  if (value.sourceVersion !== undefined) selector.sourceVersion = text(value.sourceVersion, `${field}.sourceVersion`);
  return selector;
}

function recordingChoice(value: unknown): RecordingChoice {
  if (!isObject(value))
    throw fieldError('recordings', 'recordings must be { "mediaKeys": [...] } or { "device", "from", "to" }');
  if ('mediaKeys' in value) {
    const extra = Object.keys(value).find((k) => k !== 'mediaKeys');
    if (extra) throw fieldError(`recordings.${extra}`, 'recordings takes mediaKeys, or device/from/to, not both');
    const keys = value.mediaKeys;
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_RECORDINGS)
      throw fieldError('recordings.mediaKeys', `recordings.mediaKeys must list 1 to ${MAX_RECORDINGS} mediaKeys`);
    return { kind: 'keys', mediaKeys: [...new Set(keys.map((k, i) => text(k, `recordings.mediaKeys[${i}]`)))] };
  }
  const extra = Object.keys(value).find((k) => k !== 'device' && k !== 'from' && k !== 'to');
  if (extra) throw fieldError(`recordings.${extra}`, `recordings takes mediaKeys, or device/from/to; got "${extra}"`);
  const range = parseTimeRange(value.from, value.to, 'body');
  return {
    kind: 'filter',
    ...(value.device !== undefined ? { device: text(value.device, 'recordings.device') } : {}),
    ...range,
  };
}

export function parseEvaluationRequest(body: unknown): EvaluationRequest {
  if (!isObject(body)) throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!KEYS.has(key)) throw fieldError(key, `Unknown field "${key}"`);
  }
  if (body.groundTruth === undefined) throw fieldError('groundTruth', 'groundTruth is required: a runId or a selector');
  const groundTruth = runChoice(body.groundTruth, 'groundTruth');

  const predictionList = body.predictions;
  if (!Array.isArray(predictionList) || predictionList.length === 0)
    throw fieldError('predictions', 'predictions must list at least one prediction: runIds or selectors');
  if (predictionList.length > MAX_PREDICTIONS)
    throw fieldError('predictions', `predictions may list at most ${MAX_PREDICTIONS} predictions`);
  const predictions = predictionList.map((p, i) => runChoice(p, `predictions[${i}]`));

  const mediaKey = body.mediaKey === undefined ? undefined : text(body.mediaKey, 'mediaKey');
  const analysisId = body.analysisId === undefined ? undefined : text(body.analysisId, 'analysisId');
  let recordings: RecordingChoice;
  if (body.recordings !== undefined) {
    if (mediaKey !== undefined || analysisId !== undefined)
      throw fieldError('recordings', 'Name one recording (mediaKey or analysisId) or several (recordings), not both');
    if (typeof groundTruth === 'string')
      throw fieldError(
        'recordings',
        'A groundTruth runId names one recording: choose runs by selector to use recordings',
      );
    recordings = recordingChoice(body.recordings);
  } else if (mediaKey !== undefined || analysisId !== undefined || typeof groundTruth === 'string') {
    recordings = { kind: 'one', mediaKey, analysisId };
  } else {
    recordings = { kind: 'all' };
  }
  if (recordings.kind !== 'one') {
    const byId = predictions.findIndex((p) => typeof p === 'string');
    if (byId >= 0)
      throw fieldError(
        `predictions[${byId}]`,
        'A runId names a run of one recording: across recordings, choose predictions by selector too',
      );
  }

  let metrics: MetricName[] = [...EVALUATION_METRICS];
  if (body.metrics !== undefined) {
    if (!Array.isArray(body.metrics) || body.metrics.length === 0)
      throw fieldError('metrics', `metrics must list some of ${EVALUATION_METRICS.join(', ')}`);
    for (const m of body.metrics) {
      if (!(EVALUATION_METRICS as readonly unknown[]).includes(m))
        throw fieldError(
          'metrics',
          `Unknown metric ${JSON.stringify(m)}: choose from ${EVALUATION_METRICS.join(', ')}`,
        );
    }
    metrics = [...new Set(body.metrics as MetricName[])];
  }
  let iouThreshold = 0.5;
  if (body.iouThreshold !== undefined) {
    const t = body.iouThreshold;
    if (typeof t !== 'number' || !(t > 0 && t <= 1))
      throw fieldError('iouThreshold', 'iouThreshold must be a number in (0, 1]');
    iouThreshold = t;
  }
  if (body.classAgnostic !== undefined && typeof body.classAgnostic !== 'boolean')
    throw fieldError('classAgnostic', 'classAgnostic must be true or false');
  return {
    recordings,
    groundTruth,
    predictions,
    parameters: { metrics, iouThreshold, classAgnostic: body.classAgnostic === true },
  };
}
