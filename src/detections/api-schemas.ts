// OpenAPI descriptions of the detections routes. The POST body is documented here but validated by
// validate-run.ts (box-level rejections and stable codes need more than a JSON schema can say).
import { Type, type TSchema } from 'typebox';

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

// The answers of the read and delete routes (documentation only: the handlers write their JSON by hand).
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const ClassId = Type.Union([Type.String(), Type.Number()]);

const StoredBox = Type.Object({
  frame: Type.Integer({ minimum: 0 }),
  x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number(),
  confidence: Type.Optional(Type.Number()), timestampMs: Type.Optional(Type.Number()),
  label: Type.Optional(Type.String()), classId: Type.Optional(ClassId),
}, { description: 'Normalised x, y, w, h (0–1), whatever the run was posted in' });

const StoredTrack = Type.Object({
  id: Type.String({ description: 'A numeric id comes back as its decimal text' }),
  label: Type.Optional(Type.String()), classId: Type.Optional(ClassId), confidence: Type.Optional(Type.Number()), color: Type.Optional(Type.String()),
  boxes: Type.Array(StoredBox, { description: 'Sorted by frame' }),
});

/** Spec §4.7 without `tracks`. */
export const RunSummary = Type.Object({
  runId: Type.String(), mediaKey: Type.String(), analysisId: Type.String(),
  name: Type.Optional(Type.String({ description: 'Only when the run was posted with one' })),
  task: Type.Union([Type.Literal('detection'), Type.Literal('pose')]),
  schemaVersion: Type.String(),
  source: Type.Object({
    kind: Type.Optional(Nullable(Type.String())), name: Type.Optional(Nullable(Type.String())), version: Type.Optional(Nullable(Type.String())),
    runId: Type.String({ description: 'Also when the server generated it' }),
  }, { additionalProperties: Scalar, description: "As posted: the source's scalar members" }),
  coordinateSpace: Type.Literal('normalized'),
  originalCoordinateSpace: Type.Union([Type.Literal('pixel'), Type.Literal('normalized')]),
  originalBoxForm: Type.Union([Type.Literal('xywh'), Type.Literal('xyxy'), Type.Literal('mixed')]),
  media: Nullable(Type.Object({
    width: Type.Optional(Nullable(Type.Number())), height: Type.Optional(Nullable(Type.Number())),
    fps: Type.Optional(Nullable(Type.Number())), frameCount: Type.Optional(Nullable(Type.Integer())),
  }, { additionalProperties: Scalar, description: "As posted: media's scalar members; null when none was sent" })),
  categories: Type.Array(Type.Unknown(), { description: 'As posted; [] when none was sent' }),
  recordingTimestamp: Type.Integer({ description: "The recording's start, Unix seconds" }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  tracksStored: Type.Integer(),
  boxesStored: Type.Integer(),
});

/** Spec §4.7: the stored run with its tracks. */
export const StoredRun = Type.Object({ ...RunSummary.properties, tracks: Type.Array(StoredTrack) });

export const RunResult = Type.Object({ data: StoredRun });
export const RunListResult = Type.Object({
  data: Type.Object({
    mediaKey: Type.String(),
    runs: Type.Union([Type.Array(RunSummary), Type.Array(StoredRun)], { description: 'Oldest first: summaries (no tracks), or full runs with include=tracks' }),
  }),
});
export const RunDeleteResult = Type.Object({ data: Type.Object({ runId: Type.String(), mediaKey: Type.String(), deleted: Type.Literal(true) }) });
