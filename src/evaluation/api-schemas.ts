// OpenAPI shapes of /evaluations (documentation only: the handlers check bodies in code, so that each refusal gets its
// code and field, and write their answers by hand).
import { Type, type TSchema } from 'typebox';
import { named } from '../http/openapi-components.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const Selector = Type.Object(
  {
    sourceName: Type.String({ minLength: 1, description: "The run's source.name" }),
    sourceVersion: Type.Optional(Type.String({ minLength: 1, description: "The run's source.version" })),
  },
  { description: 'Per recording, the newest run (by updatedAt) with this producer', additionalProperties: false },
);
const RunChoice = Type.Union([Type.String({ minLength: 1, description: 'A runId' }), Selector]);

export const EvaluationBody = named(
  'EvaluationRequest',
  Type.Object(
    {
      mediaKey: Type.Optional(Type.String({ description: 'The recording (one-recording evaluations)' })),
      analysisId: Type.Optional(Type.String({ description: 'Stands for mediaKey' })),
      groundTruth: RunChoice,
      predictions: Type.Array(RunChoice, { minItems: 1, maxItems: 20 }),
      recordings: Type.Optional(
        Type.Union(
          [
            Type.Object({ mediaKeys: Type.Array(Type.String(), { minItems: 1, maxItems: 1000 }) }),
            Type.Object({
              device: Type.Optional(Type.String()),
              from: Type.Optional(
                Type.Union([Type.Number(), Type.String()], { description: 'Unix seconds or ISO-8601' }),
              ),
              to: Type.Optional(
                Type.Union([Type.Number(), Type.String()], { description: 'Unix seconds or ISO-8601' }),
              ),
            }),
          ],
          { description: 'With selectors: the recordings to score; left out, every recording with a ground-truth run' },
        ),
      ),
      metrics: Type.Optional(
        Type.Array(
          Type.Union([Type.Literal('hota'), Type.Literal('clear'), Type.Literal('identity'), Type.Literal('coco')]),
          {
            default: ['hota', 'clear', 'identity', 'coco'],
          },
        ),
      ),
      iouThreshold: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.5 })),
      classAgnostic: Type.Optional(Type.Boolean({ default: false })),
    },
    {
      additionalProperties: false,
      // The demo's two runs: the tracker's scored against the detector's.
      examples: [{ mediaKey: 'demo/cam1.mp4', groundTruth: 'demo-detector-1', predictions: ['demo-tracker-1'] }],
    },
  ),
);

const Figures = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Fields named as the references name them (HOTA, MOTA, IDF1, AP, …); HOTA per α under `alpha`',
});
const Frame = Type.Object({
  frame: Type.Integer(),
  tp: Type.Integer(),
  fp: Type.Integer(),
  fn: Type.Integer(),
  idsw: Type.Integer(),
});
const Sequence = Type.Object({
  mediaKey: Type.String(),
  groundTruthRunId: Type.String(),
  predictionRunId: Nullable(Type.String()),
  combined: Figures,
  classes: Type.Record(Type.String(), Figures),
  frames: Type.Optional(Type.Array(Frame, { description: 'Per frame, CLEAR counts (with include=frames only)' })),
});
const Result = Type.Object({
  prediction: RunChoice,
  classAgnostic: Type.Boolean(),
  combined: Figures,
  classes: Type.Record(Type.String(), Figures),
  classAveraged: Figures,
  detAveraged: Figures,
  sequences: Type.Array(Sequence),
});
export const Evaluation = named(
  'Evaluation',
  Type.Object({
    id: Type.String(),
    status: Type.Union([Type.Literal('running'), Type.Literal('complete'), Type.Literal('failed')]),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Nullable(Type.String({ format: 'date-time' })),
    error: Type.Optional(Type.String()),
    parameters: Type.Object({
      metrics: Type.Array(Type.String()),
      iouThreshold: Type.Number(),
      classAgnostic: Type.Boolean(),
    }),
    stale: Type.Boolean({ description: 'A run it used has been replaced or deleted since' }),
    results: Type.Array(Result, { description: 'One per prediction; empty while running' }),
  }),
);
export const EvaluationResult = Type.Object({ data: Evaluation });
export const EvaluationPage = Type.Object({
  data: Type.Object({
    evaluations: Type.Array(Evaluation, { description: 'Newest first' }),
    nextCursor: Nullable(
      Type.String({ description: 'Pass back as `cursor` for the next page; null on the last page' }),
    ),
  }),
});
export const EvaluationDeleted = Type.Object({ data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }) });
export const EvaluationIdParams = Type.Object({ id: Type.String() });
export const EvaluationGetQuery = Type.Object({
  include: Type.Optional(Type.Literal('frames', { description: 'Add per-frame CLEAR counts to each sequence' })),
});
export const EvaluationListQuery = Type.Object({
  mediaKey: Type.Optional(Type.String({ description: 'Only evaluations that cover this recording' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  cursor: Type.Optional(Type.String({ description: 'The nextCursor of the previous page' })),
});
