// OpenAPI descriptions of the detections routes. The POST body is documented here but validated by
// validate-run.ts (box-level rejections and stable codes need more than a JSON schema can say).
import { Type } from 'typebox';

const Box = Type.Object({
  frame: Type.Integer({ minimum: 0 }),
  x: Type.Optional(Type.Number()), y: Type.Optional(Type.Number()), w: Type.Optional(Type.Number()), h: Type.Optional(Type.Number()),
  x1: Type.Optional(Type.Number()), y1: Type.Optional(Type.Number()), x2: Type.Optional(Type.Number()), y2: Type.Optional(Type.Number()),
  confidence: Type.Optional(Type.Number()), timestampMs: Type.Optional(Type.Number()),
  label: Type.Optional(Type.String()), classId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});

export const DetectionRunBody = Type.Object({
  mediaKey: Type.Optional(Type.String({ description: 'The recording key; wins over analysisId when both are sent' })),
  analysisId: Type.Optional(Type.String()),
  schemaVersion: Type.String({ examples: ['1.0'] }),
  task: Type.Optional(Type.Union([Type.Literal('detection'), Type.Literal('pose')])),
  name: Type.Optional(Type.String({ maxLength: 128 })),
  source: Type.Object({
    kind: Type.Optional(Type.String()), name: Type.Optional(Type.String()), version: Type.Optional(Type.String()),
    runId: Type.Optional(Type.String({ description: 'Idempotency key; generated when absent' })),
  }, { additionalProperties: true }),
  coordinateSpace: Type.Union([Type.Literal('pixel'), Type.Literal('normalized')]),
  media: Type.Optional(Type.Object({
    width: Type.Optional(Type.Number()), height: Type.Optional(Type.Number()),
    fps: Type.Optional(Type.Number()), frameCount: Type.Optional(Type.Integer()),
  })),
  categories: Type.Optional(Type.Array(Type.Unknown())),
  tracks: Type.Array(Type.Object({
    id: Type.Union([Type.String(), Type.Number()]),
    label: Type.Optional(Type.String()),
    boxes: Type.Array(Box),
  })),
}, { additionalProperties: true });

export const PostResult = Type.Object({
  runId: Type.String(),
  tracksStored: Type.Integer(),
  boxesStored: Type.Integer(),
  rejected: Type.Array(Type.Object({ trackId: Type.String(), frame: Type.Union([Type.Integer(), Type.Null()]), reason: Type.String() })),
  warnings: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer(), message: Type.String() })),
});

export const RunIdParams = Type.Object({ runId: Type.String() });
export const ListQuery = Type.Object({
  mediaKey: Type.Optional(Type.String()),
  include: Type.Optional(Type.String({ description: '"tracks" returns full runs instead of summaries' })),
});
export const ByIdQuery = Type.Object({ mediaKey: Type.Optional(Type.String({ description: 'Narrow to one recording' })) });
