// OpenAPI shapes of the registry's answers (documentation only: the handlers write their JSON by hand, and check
// their inputs in code so that every failure gets its code).
import { Type, type TSchema } from 'typebox';
import { RunSummary } from '../detections/api-schemas.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const recordingFields = {
  id: Type.String(), mediaKey: Type.String(), analysisId: Type.String(),
  startTimestamp: Type.Integer({ description: 'Unix seconds' }),
  deviceKey: Nullable(Type.String()), provider: Nullable(Type.String()),
  width: Nullable(Type.Number()), height: Nullable(Type.Number()), fps: Nullable(Type.Number()),
  frameCount: Nullable(Type.Integer()), durationMs: Nullable(Type.Number()),
  createdAt: Type.String({ format: 'date-time' }),
};
const Recording = Type.Object(recordingFields);
const NextCursor = Nullable(Type.String({ description: 'Pass back as `cursor` for the next page; null on the last page' }));

export const RecordingResult = Type.Object({ data: Recording });

/** An upload event for a key that is not a recording (not .mp4, or *_redacted.mp4). */
const IgnoredEvent = Type.Object({ ignored: Type.Literal(true), key: Type.String(), reason: Type.Literal('not_a_recording') });
export const EventResult = Type.Object({ data: Type.Union([Recording, IgnoredEvent]) });

export const RecordingPage = Type.Object({
  data: Type.Object({
    recordings: Type.Array(Type.Object({ ...recordingFields, runCount: Type.Integer() }), { description: 'Newest first (startTimestamp, then id)' }),
    nextCursor: NextCursor,
  }),
});

export const RecordingWithRuns = Type.Object({
  data: Type.Object({ ...recordingFields, runs: Type.Array(RunSummary, { description: 'Run summaries, oldest first, as GET /detections' }) }),
});

export const RecordingDeleteResult = Type.Object({
  data: Type.Object({ id: Type.String(), mediaKey: Type.String(), deleted: Type.Literal(true), runsDeleted: Type.Integer() }),
});

export const SearchResult = Type.Object({
  data: Type.Object({
    recordings: Type.Array(Type.Object({
      id: Type.String(), mediaKey: Type.String(), analysisId: Type.String(), startTimestamp: Type.Integer(), deviceKey: Nullable(Type.String()),
      matches: Type.Array(Type.Object({
        runId: Type.String(), label: Type.String({ description: "The track's label, or `object`" }),
        count: Type.Integer({ description: "How many of the run's centroids with that label lie inside the region" }),
      }), { description: 'One per (run, label), sorted by runId then label' }),
    }), { description: 'Newest first' }),
    nextCursor: NextCursor,
  }),
});
