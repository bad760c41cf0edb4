// OpenAPI descriptions of the detections routes. The POST body is documented here but validated by
// validate-run.ts (box-level rejections and stable codes need more than a JSON schema can say).
import { Type, type TSchema } from 'typebox';
import { named } from '../http/openapi-components.js';
import {
  MAX_BOXES_PER_TRACK,
  MAX_NAME_BYTES,
  MAX_RUN_ID_BYTES,
  MAX_SOURCE_BYTES,
  MAX_TRACKS,
  MAX_TRACK_ID_BYTES,
} from './limits.js';

// JSON Schema's maxLength counts characters; the limits are in UTF-8 bytes, so each description says which.
const bytes = (n: number, more = '') => `At most ${n} bytes (UTF-8)${more}`;

const Box = named(
  'Box',
  Type.Object({
    frame: Type.Number({
      description:
        'An integer ≥ 0 (and < media.frameCount when given). Any other value rejects this box only (box_invalid_frame), not the run',
    }),
    x: Type.Optional(Type.Number()),
    y: Type.Optional(Type.Number()),
    w: Type.Optional(Type.Number()),
    h: Type.Optional(Type.Number()),
    x1: Type.Optional(Type.Number()),
    y1: Type.Optional(Type.Number()),
    x2: Type.Optional(Type.Number()),
    y2: Type.Optional(Type.Number()),
    confidence: Type.Optional(Type.Number()),
    timestampMs: Type.Optional(Type.Number()),
    label: Type.Optional(Type.String()),
    classId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    interpolated: Type.Optional(
      Type.Boolean({
        description: 'Filled between keyframes; stored and returned (true), any other type → 400 invalid_field',
      }),
    ),
  }),
);

const ScalarMember = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const Track = named(
  'Track',
  Type.Object({
    id: Type.Union(
      [
        Type.String({ minLength: 1, maxLength: MAX_TRACK_ID_BYTES, description: bytes(MAX_TRACK_ID_BYTES) }),
        Type.Number(),
      ],
      { description: 'Unique in the run' },
    ),
    label: Type.Optional(Type.String()),
    boxes: Type.Array(Box, { minItems: 1, maxItems: MAX_BOXES_PER_TRACK }),
  }),
);

// The demo's recording (`sightline demo`, src/cli/demo-data.ts), so that Swagger UI's "Try it out" works there.
export const DEMO_MEDIA_KEY = 'demo/cam1.mp4';

/**
 * One of mediaKey and analysisId is required: said in the descriptions and checked by validate-run.ts
 * (target_missing), not by a required-only `anyOf`, which client generators turn into an untyped body.
 */
export const DetectionRunBody = named(
  'DetectionRunRequest',
  Type.Object(
    {
      mediaKey: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'The recording key; wins over analysisId when both are sent. One of mediaKey and analysisId is required (else 400 target_missing)',
        }),
      ),
      analysisId: Type.Optional(
        Type.String({
          minLength: 1,
          description: "The recording's analysisId, when mediaKey is not sent. One of the two is required",
        }),
      ),
      schemaVersion: Type.String({
        examples: ['1.0'],
        pattern: '^\\d+(\\.\\d+){0,2}$',
        description: 'MAJOR[.MINOR[.PATCH]]; major 1 is supported',
      }),
      task: Type.Optional(Type.Union([Type.Literal('detection'), Type.Literal('pose')])),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_BYTES, description: bytes(MAX_NAME_BYTES) })),
      source: Type.Object(
        {
          kind: Type.Optional(
            Type.String({ maxLength: MAX_SOURCE_BYTES.kind, description: bytes(MAX_SOURCE_BYTES.kind) }),
          ),
          name: Type.Optional(
            Type.String({ maxLength: MAX_SOURCE_BYTES.name, description: bytes(MAX_SOURCE_BYTES.name) }),
          ),
          version: Type.Optional(
            Type.String({ maxLength: MAX_SOURCE_BYTES.version, description: bytes(MAX_SOURCE_BYTES.version) }),
          ),
          runId: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: MAX_RUN_ID_BYTES,
              pattern: '^[^/\\u0000-\\u001f\\u007f]+$',
              description: bytes(
                MAX_RUN_ID_BYTES,
                ', no `/` and no control character. The idempotency key; generated when absent',
              ),
            }),
          ),
        },
        {
          additionalProperties: ScalarMember,
          description: 'Other members are kept as sent when they are scalars; others are dropped',
        },
      ),
      coordinateSpace: Type.Union([Type.Literal('pixel'), Type.Literal('normalized')]),
      media: Type.Optional(
        Type.Object(
          {
            width: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
            height: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
            fps: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
            frameCount: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
          },
          { description: 'Required (with width and height) for pixel runs' },
        ),
      ),
      categories: Type.Optional(Type.Array(Type.Unknown())),
      tracks: Type.Array(Track, { minItems: 1, maxItems: MAX_TRACKS }),
    },
    {
      additionalProperties: true,
      description:
        'A detection run for one recording. Send mediaKey or analysisId (at least one; mediaKey wins): without either → 400 target_missing',
      examples: [
        {
          mediaKey: DEMO_MEDIA_KEY,
          schemaVersion: '1.0',
          coordinateSpace: 'pixel',
          media: { width: 640, height: 360, fps: 25 },
          source: { kind: 'model', name: 'yolov8n', version: '8.1.0', runId: 'my-first-run' },
          tracks: [
            {
              id: 1,
              label: 'bicycle',
              boxes: [
                { frame: 0, x1: 100, y1: 120, x2: 180, y2: 200, confidence: 0.91 },
                { frame: 1, x1: 104, y1: 121, x2: 184, y2: 201, confidence: 0.9 },
              ],
            },
          ],
        },
      ],
    },
  ),
);

const Rejection = named(
  'Rejection',
  Type.Object(
    {
      trackId: Type.String(),
      frame: Type.Union([Type.Integer(), Type.Null()], { description: 'The frame sent, when it was an integer' }),
      reason: Type.String({
        description: 'box_invalid_frame, box_missing_geometry, box_non_positive_dimensions or box_out_of_frame',
      }),
    },
    { description: 'A box that was not stored, and why; in the order of the request' },
  ),
);
export const Warning = named(
  'Warning',
  Type.Object(
    {
      code: Type.String({
        description: 'TIMESTAMP_FRAME_MISMATCH, FRAME_OUT_OF_RANGE, DUPLICATE_FRAME or SCHEMA_VERSION_MINOR_MISMATCH',
      }),
      count: Type.Integer({ description: 'How many kept boxes it concerns' }),
      message: Type.String(),
    },
    { description: 'Something about kept boxes worth knowing; the run is stored' },
  ),
);

export const PostResult = named(
  'PostResult',
  Type.Object({
    runId: Type.String(),
    tracksStored: Type.Integer(),
    boxesStored: Type.Integer({ description: 'After duplicates are resolved' }),
    rejected: Type.Array(Rejection),
    warnings: Type.Array(Warning),
  }),
);

export const RunIdParams = Type.Object({ runId: Type.String() });
export const ListQuery = Type.Object({
  mediaKey: Type.Optional(Type.String()),
  include: Type.Optional(Type.String()),
});
/** What /docs shows: the route checks mediaKey itself, so that a missing one answers media_key_missing. */
export const DocumentedListQuery = Type.Object({
  mediaKey: Type.String({ minLength: 1, description: "The recording's key; missing or empty → 400 media_key_missing" }),
  include: Type.Optional(
    Type.Literal('tracks', {
      description: 'Full runs (with tracks) instead of summaries; any other value → 400 invalid_field',
    }),
  ),
});
export const ByIdQuery = Type.Object({
  mediaKey: Type.Optional(Type.String({ description: 'Narrow to one recording' })),
});
export const ReadQuery = Type.Object({
  mediaKey: Type.Optional(Type.String({ description: 'Narrow to one recording' })),
  revision: Type.Optional(
    Type.String({ description: 'An earlier revision (a positive integer); unknown → 404 revision_not_found' }),
  ),
});
export const RevisionParams = Type.Object({ runId: Type.String(), revision: Type.String() });

// The answers of the read and delete routes (documentation only: the handlers write their JSON by hand).
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const ClassId = Type.Union([Type.String(), Type.Number()]);

const StoredBox = named(
  'StoredBox',
  Type.Object(
    {
      frame: Type.Integer({ minimum: 0 }),
      x: Type.Number(),
      y: Type.Number(),
      w: Type.Number(),
      h: Type.Number(),
      confidence: Type.Optional(Type.Number()),
      timestampMs: Type.Optional(Type.Number()),
      label: Type.Optional(Type.String()),
      classId: Type.Optional(ClassId),
      interpolated: Type.Optional(Type.Literal(true, { description: 'Filled between keyframes, not seen by a model' })),
    },
    { description: 'Normalised x, y, w, h (0–1), whatever the run was posted in' },
  ),
);

const StoredTrack = named(
  'StoredTrack',
  Type.Object({
    id: Type.String({ description: 'A numeric id comes back as its decimal text' }),
    label: Type.Optional(Type.String()),
    classId: Type.Optional(ClassId),
    confidence: Type.Optional(Type.Number()),
    color: Type.Optional(Type.String()),
    boxes: Type.Array(StoredBox, { description: 'Sorted by frame' }),
  }),
);

/** Spec §4.7 without `tracks`. */
export const RunSummary = named(
  'RunSummary',
  Type.Object({
    runId: Type.String(),
    mediaKey: Type.String(),
    analysisId: Type.String(),
    name: Type.Optional(Type.String({ description: 'Only when the run was posted with one' })),
    task: Type.Union([Type.Literal('detection'), Type.Literal('pose')]),
    schemaVersion: Type.String(),
    source: Type.Object(
      {
        kind: Type.Optional(Nullable(Type.String())),
        name: Type.Optional(Nullable(Type.String())),
        version: Type.Optional(Nullable(Type.String())),
        runId: Type.String({ description: 'Also when the server generated it' }),
      },
      { additionalProperties: Scalar, description: "As posted: the source's scalar members" },
    ),
    coordinateSpace: Type.Literal('normalized'),
    originalCoordinateSpace: Type.Union([Type.Literal('pixel'), Type.Literal('normalized')]),
    originalBoxForm: Type.Union([Type.Literal('xywh'), Type.Literal('xyxy'), Type.Literal('mixed')]),
    media: Nullable(
      Type.Object(
        {
          width: Type.Optional(Nullable(Type.Number())),
          height: Type.Optional(Nullable(Type.Number())),
          fps: Type.Optional(Nullable(Type.Number())),
          frameCount: Type.Optional(Nullable(Type.Integer())),
        },
        { additionalProperties: Scalar, description: "As posted: media's scalar members; null when none was sent" },
      ),
    ),
    categories: Type.Array(Type.Unknown(), { description: 'As posted; [] when none was sent' }),
    recordingTimestamp: Type.Integer({ description: "The recording's start, Unix seconds" }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    tracksStored: Type.Integer(),
    boxesStored: Type.Integer(),
    revision: Type.Integer({ minimum: 1, description: 'Counts changes of the content; only grows (spec §9)' }),
    editedBy: Type.Optional(
      Type.String({ description: 'Username of the person whose change made this revision; absent for an application' }),
    ),
    editedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When that person made it' })),
  }),
);

/** Spec §4.7: the stored run with its tracks. */
export const StoredRun = named('Run', Type.Object({ ...RunSummary.properties, tracks: Type.Array(StoredTrack) }));

export const RunResult = Type.Object({ data: StoredRun });
export const RunListResult = Type.Object({
  data: Type.Object({
    mediaKey: Type.String(),
    runs: Type.Union([Type.Array(RunSummary), Type.Array(StoredRun)], {
      description: 'Oldest first: summaries (no tracks), or full runs with include=tracks',
    }),
  }),
});
export const RunDeleteResult = Type.Object({
  data: Type.Object({ runId: Type.String(), mediaKey: Type.String(), deleted: Type.Literal(true) }),
});

// POST /detections/import and GET /detections/{runId}/export (documentation: the routes check their own queries, so
// that a wrong value answers the spec's codes).
const FORMAT_NAMES = ['mot', 'cvat-video', 'coco', 'yolo', 'supervision-csv', 'kitti', 'sightline'] as const;
const FormatParam = Type.Union(
  FORMAT_NAMES.map((name) => Type.Literal(name)),
  { description: 'The file format; an unknown name → 400 invalid_field', examples: ['mot'] },
);
const Switch = (description: string) =>
  Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description }));
const Flavor = Type.Optional(
  Type.Union([Type.Literal('gt'), Type.Literal('results')], {
    description: 'MOT only: ground truth (consider flag, class, visibility) or results (confidence); default results',
  }),
);

export const ImportQuery = Type.Object({
  format: FormatParam,
  mediaKey: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'The recording; wins over analysisId. One of the two is required',
      examples: [DEMO_MEDIA_KEY],
    }),
  ),
  analysisId: Type.Optional(Type.String({ minLength: 1 })),
  runId: Type.Optional(
    Type.String({
      description: bytes(
        MAX_RUN_ID_BYTES,
        ". The idempotency key; when absent, the file's own (a run JSON's source.runId), else <format>-<SHA-256 of the file, 32 hex digits>",
      ),
    }),
  ),
  sourceKind: Type.Optional(
    Type.String({ description: `source.kind, default "import"; ${bytes(MAX_SOURCE_BYTES.kind)}` }),
  ),
  sourceName: Type.Optional(Type.String({ description: `source.name; ${bytes(MAX_SOURCE_BYTES.name)}` })),
  sourceVersion: Type.Optional(Type.String({ description: `source.version; ${bytes(MAX_SOURCE_BYTES.version)}` })),
  name: Type.Optional(Type.String({ description: `The run's display name; ${bytes(MAX_NAME_BYTES)}` })),
  width: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: "Frame width in pixels when the file has none (else the recording's); with height",
    }),
  ),
  height: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Frame height in pixels; with width' })),
  interpolate: Switch('Fill every frame between two consecutive boxes of a track (files that list keyframes only)'),
  flavor: Flavor,
});

export const ExportQuery = Type.Object({
  format: FormatParam,
  mediaKey: Type.Optional(Type.String({ description: 'Narrow to one recording' })),
  interpolate: Switch('Fill every frame between two consecutive boxes of a track (filled boxes carry no confidence)'),
  flavor: Flavor,
});

const Position = {
  line: Type.Optional(Type.Integer({ description: 'Text formats (mot, kitti, supervision-csv): the 1-based line' })),
  element: Type.Optional(Type.String({ description: 'cvat-video: track[i]/box[j], 1-based' })),
  index: Type.Optional(
    Type.Integer({ description: "coco: the annotation's index; sightline: the box's index in its track" }),
  ),
  entry: Type.Optional(Type.String({ description: 'yolo: <entry name>:<1-based line>' })),
};

export const ImportResult = named(
  'ImportResult',
  Type.Object({
    runId: Type.String(),
    tracksStored: Type.Integer(),
    boxesStored: Type.Integer(),
    rejected: Type.Array(
      named(
        'ImportRejection',
        Type.Object({
          trackId: Type.Union([Type.String(), Type.Null()]),
          frame: Type.Union([Type.Integer(), Type.Null()]),
          reason: Type.String({
            description: 'A box rule of POST /detections, or row_malformed for a row that could not be read',
          }),
          detail: Type.Optional(Type.String({ description: 'row_malformed: what was wrong with the row' })),
          ...Position,
        }),
      ),
      { description: 'In the order of the file' },
    ),
    warnings: Type.Array(Warning),
  }),
);

// Spec §9: revisions and track-level patches.
export const RevisionListResult = Type.Object({
  data: Type.Object({
    runId: Type.String(),
    mediaKey: Type.String(),
    revisions: Type.Array(
      named(
        'Revision',
        Type.Object({
          revision: Type.Integer(),
          createdAt: Type.String({ format: 'date-time', description: 'When this revision became current' }),
          source: Type.Record(Type.String(), Type.Unknown()),
          tracksStored: Type.Integer(),
          boxesStored: Type.Integer(),
          editedBy: Type.Optional(Type.String()),
          current: Type.Boolean(),
        }),
      ),
      { description: 'Newest first; the first is the current content' },
    ),
  }),
});
export const PatchBody = named(
  'RunPatchRequest',
  Type.Object(
    {
      baseRevision: Type.Integer({ minimum: 1, description: 'The revision the change was made on; not current → 409' }),
      tracks: Type.Object({
        upsert: Type.Optional(
          Type.Array(Track, {
            description:
              'Tracks as in POST /detections (normalized boxes): each replaces the track with its id or is added',
          }),
        ),
        delete: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]), { description: 'Track ids' })),
      }),
    },
    {
      description: 'Upsert and delete tracks of the run, against the revision the change was made on',
      // The demo's detector run at its first revision: the example works once; then baseRevision is not current (409).
      examples: [
        {
          baseRevision: 1,
          tracks: {
            upsert: [{ id: 'p1', label: 'person', boxes: [{ frame: 0, x: 0.06, y: 0.42, w: 0.09, h: 0.42 }] }],
            delete: ['d1'],
          },
        },
      ],
    },
  ),
);
export const PatchResult = named(
  'PatchResult',
  Type.Object({
    runId: Type.String(),
    mediaKey: Type.String(),
    revision: Type.Integer({ description: 'The new current revision' }),
    tracksStored: Type.Integer({ description: "The run's tracks after the patch" }),
    boxesStored: Type.Integer({ description: "The run's boxes after the patch" }),
    rejected: PostResult.properties.rejected,
    warnings: PostResult.properties.warnings,
  }),
);
export const RestoreResult = Type.Object({
  data: Type.Object({
    runId: Type.String(),
    mediaKey: Type.String(),
    revision: Type.Integer({ description: 'The new current revision, holding the restored content' }),
    restoredFrom: Type.Integer(),
    tracksStored: Type.Integer(),
    boxesStored: Type.Integer(),
  }),
});
