// OpenAPI shapes of the registry's answers (documentation only: the handlers write their JSON by hand, and check
// their inputs in code so that every failure gets its code).
import { Type, type TSchema } from 'typebox';
import { named } from '../http/openapi-components.js';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A recording as every route answers it (the search's hits and the detections' view of a recording use it too). */
export const recordingFields = {
  id: Type.String(),
  mediaKey: Type.String(),
  analysisId: Type.String(),
  startTimestamp: Type.Integer({ description: 'Unix seconds' }),
  deviceKey: Nullable(Type.String()),
  provider: Nullable(Type.String()),
  width: Nullable(Type.Number()),
  height: Nullable(Type.Number()),
  fps: Nullable(Type.Number()),
  frameCount: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Number()),
  createdAt: Type.String({ format: 'date-time' }),
};
const Recording = named('Recording', Type.Object(recordingFields));
const NextCursor = Nullable(
  Type.String({ description: 'Pass back as `cursor` for the next page; null on the last page' }),
);

export const RecordingResult = Type.Object({ data: Recording });

/** An upload event for a key that is not a recording (not .mp4, or *_redacted.mp4). */
const IgnoredEvent = Type.Object({
  ignored: Type.Literal(true),
  key: Type.String(),
  reason: Type.Literal('not_a_recording'),
});
export const EventResult = Type.Object({ data: Type.Union([Recording, IgnoredEvent]) });

export const RecordingPage = Type.Object({
  data: Type.Object({
    recordings: Type.Array(Type.Object({ ...recordingFields, runCount: Type.Integer() }), {
      description: 'Newest first (startTimestamp, then id)',
    }),
    nextCursor: NextCursor,
  }),
});

export const RecordingDeleteResult = Type.Object({
  data: Type.Object({
    id: Type.String(),
    mediaKey: Type.String(),
    deleted: Type.Literal(true),
    runsDeleted: Type.Integer(),
  }),
});

// The requests (documentation only: the routes check them in code, so that each failure answers its own code and
// field). JSON Schema counts characters where the routes count UTF-8 bytes: the descriptions give the byte limits.
const text = (description: string) =>
  Type.String({ minLength: 1, description: `${description}; at most 256 bytes, no control characters` });
export const TimeBound = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.String({ format: 'date-time' })], {
    description: `${description}: Unix seconds or an ISO-8601 date`,
  });

export const RegisterRecordingBody = named(
  'RecordingRequest',
  Type.Object(
    {
      mediaKey: Type.String({
        minLength: 1,
        description: 'The object key, e.g. alice/1700000000_cam1.mp4; at most 1024 bytes',
      }),
      analysisId: Type.Optional(
        Type.String({ minLength: 1, description: 'Generated when absent; at most 128 bytes, unique' }),
      ),
      startTimestamp: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 253_402_300_799,
          description: 'Unix seconds; required unless the key is `<dir>/<unixSeconds>_….mp4`',
        }),
      ),
      deviceKey: Type.Optional(Type.Union([text('The camera or device'), Type.Null()])),
      provider: Type.Optional(Type.Union([text('The storage provider holding the file'), Type.Null()])),
      width: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
      height: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
      fps: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
      frameCount: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
      durationMs: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    },
    { examples: [{ mediaKey: 'demo/1700000000_cam2.mp4', deviceKey: 'cam2', width: 640, height: 360, fps: 25 }] },
  ),
);

export const UploadEventBody = named(
  'UploadEvent',
  Type.Object(
    {
      source: Type.Optional(Type.Union([text("The provider name (becomes the recording's provider)"), Type.Null()])),
      payload: Type.Object(
        {
          key: Type.String({
            minLength: 1,
            description: "The uploaded object's key; only `.mp4` keys (not `*_redacted.mp4`) are recordings",
          }),
          fileSize: Type.Optional(Type.Number()),
          metadata: Type.Optional(
            Type.Object(
              {
                'event-timestamp': Type.Optional(
                  Type.Union([Type.Number({ minimum: 0 }), Type.String()], {
                    description:
                      'Unix seconds, milliseconds or ISO-8601; names are case-insensitive, `x-amz-meta-` prefix allowed',
                  }),
                ),
                productid: Type.Optional(
                  Type.Union([Type.String(), Type.Number()], { description: 'Becomes the deviceKey' }),
                ),
              },
              { additionalProperties: true },
            ),
          ),
        },
        { additionalProperties: true },
      ),
    },
    {
      additionalProperties: true,
      examples: [
        {
          source: 'local',
          payload: { key: 'demo/1700000600_cam3.mp4', fileSize: 1048576, metadata: { 'event-timestamp': 1700000600 } },
        },
      ],
    },
  ),
);

export const RecordingListQuery = Type.Object({
  device: Type.Optional(Type.String({ minLength: 1, description: 'Only this deviceKey' })),
  from: Type.Optional(Type.String({ description: 'Earliest start: Unix seconds or an ISO-8601 date' })),
  to: Type.Optional(Type.String({ description: 'Latest start: Unix seconds or an ISO-8601 date' })),
  hasDetections: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]),
  ),
  label: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Recordings with a track of any of these labels: repeat the parameter or comma-separate',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  cursor: Type.Optional(Type.String({ description: 'The nextCursor of the previous page' })),
});
