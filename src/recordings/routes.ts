// The recordings registry over HTTP: register (also from pipeline upload events), list and delete. Reading one recording
// with its runs is the detections domain's route, the region search the search domain's.
import { skipSchemaValidation } from '../http/skip-validation.js';
import type { FastifyInstance } from 'fastify';
import { principalOf, requireReader, requireRecordingWriter } from '../auth/authenticate.js';
import { ApiError } from '../http/problem.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { sendJson } from '../http/send-json.js';
import {
  EventResult,
  RecordingDeleteResult,
  RecordingListQuery,
  RecordingPage,
  RecordingResult,
  RegisterRecordingBody,
  UploadEventBody,
} from './api-schemas.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import {
  deleteRecording,
  findRecording,
  listRecordingsPage,
  recordingForApi,
  registerRecording,
  type NewRecording,
  type Registration,
} from './queries.js';
import { validateRecordingBody, validateUploadEvent } from './validate.js';
import { recordingRef, requireJson } from './route-helpers.js';
import { MAX_LABELS, parseLimit, parseTimeRange } from './page-params.js';

const secured = [{ bearer: [] }];
const tags = ['recordings'];

function registrationResult(reg: Registration, input: NewRecording) {
  switch (reg.outcome) {
    case 'created':
      return { status: 201, recording: reg.recording };
    case 'existing':
      return { status: 200, recording: reg.recording };
    case 'conflict':
      throw new ApiError(
        409,
        'recording_conflict',
        `A recording with mediaKey "${input.mediaKey}" exists with other values (${reg.fields.join(', ')})`,
        {
          mediaKey: input.mediaKey,
          fields: reg.fields,
        },
      );
    case 'analysis_id_taken':
      throw new ApiError(
        409,
        'recording_conflict',
        `The analysisId "${input.analysisId}" belongs to another recording`,
        { fields: ['analysisId'] },
      );
  }
}

const booleanParam = (value: unknown, field: string): boolean | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ApiError(400, 'invalid_field', `${field} must be true or false`, { field });
};

const listParam = (value: unknown, field: string): string[] | undefined => {
  if (value === undefined) return undefined;
  const parts = [
    ...new Set(
      (Array.isArray(value) ? value : [value])
        .flatMap((v) => String(v).split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  // `?label=` (an unset variable in a script) is refused: dropping the filter would answer with everything.
  if (parts.length === 0)
    throw new ApiError(400, 'invalid_field', `${field} is empty: leave it out to filter nothing`, { field });
  // As many as the region search takes: each is checked against every recording the page walks past (3 000
  // labels held SQLite for seconds).
  if (parts.length > MAX_LABELS)
    throw new ApiError(400, 'invalid_field', `${field} takes at most ${MAX_LABELS} values`, { field });
  return parts;
};

// A recording is a key and a few short fields; an upload event is that and whatever metadata its pipeline adds.
const RECORDING_BODY_LIMIT = 64 * 1024;
const EVENT_BODY_LIMIT = 256 * 1024;

export async function recordingRoutes(app: FastifyInstance): Promise<void> {
  const db = app.store.db;

  app.post(
    '/recordings',
    {
      bodyLimit: RECORDING_BODY_LIMIT,
      onRequest: requireRecordingWriter,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags,
        security: secured,
        summary: 'Register a recording (idempotent on mediaKey)',
        body: RegisterRecordingBody,
        description:
          '201 registered; 200 the same body again; 409 `recording_conflict` when the mediaKey exists with other values. ' +
          'startTimestamp (Unix seconds) defaults to the time in the key, `<dir>/<unixSeconds>_….mp4`.',
        [DOCUMENTED_RESPONSES]: {
          201: jsonResponse('Registered', RecordingResult),
          200: jsonResponse('Already registered with these values: the stored recording', RecordingResult),
        },
      },
    },
    async (request, reply) => {
      requireJson(request);
      const input = validateRecordingBody(request.body);
      const { status, recording } = registrationResult(
        await registerRecording(db, principalOf(request).orgId, input),
        input,
      );
      if (status === 201) request.log.info({ mediaKey: recording.mediaKey }, 'recording registered');
      return sendJson(reply, status, { data: recordingForApi(recording) });
    },
  );

  app.post(
    '/recordings/events',
    {
      bodyLimit: EVENT_BODY_LIMIT,
      onRequest: requireRecordingWriter,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags,
        security: secured,
        summary: "Register a recording from the storage pipeline's upload event",
        body: UploadEventBody,
        description:
          '`{ source, payload: { key, fileSize, metadata: { "event-timestamp", productid } } }`: key → mediaKey, event-timestamp → start, ' +
          'productid → deviceKey, source → provider. 201 registered, 200 already known (left unchanged), 200 `ignored` for keys that are not recordings.',
        [DOCUMENTED_RESPONSES]: {
          201: jsonResponse('Registered', RecordingResult),
          200: jsonResponse(
            'Already registered (the stored recording, unchanged), or `{ ignored: true, key, reason }` for a key that is not a recording',
            EventResult,
          ),
        },
      },
    },
    async (request, reply) => {
      requireJson(request);
      const event = validateUploadEvent(request.body);
      if (event.kind === 'ignored')
        return sendJson(reply, 200, { data: { ignored: true, key: event.key, reason: event.reason } });
      const reg = await registerRecording(db, principalOf(request).orgId, event.recording, { compare: false });
      const { status, recording } = registrationResult(reg, event.recording);
      if (status === 201)
        request.log.info(
          { mediaKey: recording.mediaKey, source: recording.provider },
          'recording registered from event',
        );
      return sendJson(reply, status, { data: recordingForApi(recording) });
    },
  );

  app.get(
    '/recordings',
    {
      onRequest: requireReader,
      schema: {
        tags,
        security: secured,
        summary: 'List recordings, newest first',
        [DOCUMENTED_REQUEST]: { querystring: RecordingListQuery },
        description:
          'Filters: device, from, to (start time), hasDetections, label (repeat or comma-separate: any of). Cursor pagination: limit (1–500), cursor.',
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('One page of recordings, each with its runCount', RecordingPage) },
      },
    },
    async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const limit = parseLimit(q.limit, 'query');
      // A filter given twice is refused, never dropped: an unfiltered list would look like an answer.
      if (Array.isArray(q.device)) throw new ApiError(400, 'invalid_field', 'Give device once', { field: 'device' });
      if (q.device === '')
        throw new ApiError(400, 'invalid_field', 'device is empty: leave it out to filter nothing', {
          field: 'device',
        });
      const device = typeof q.device === 'string' ? q.device : undefined;
      const { from, to } = parseTimeRange(q.from, q.to, 'query');
      const rows = await listRecordingsPage(db, principalOf(request).orgId, {
        device,
        from,
        to,
        hasDetections: booleanParam(q.hasDetections, 'hasDetections'),
        labels: listParam(q.label, 'label'),
        after: decodeCursor(q.cursor),
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor = rows.length > limit && last ? encodeCursor({ start: last.startTimestamp, id: last.id }) : null;
      return sendJson(reply, 200, {
        data: { recordings: page.map((r) => ({ ...recordingForApi(r), runCount: r.runCount })), nextCursor },
      });
    },
  );

  app.delete(
    '/recordings/*',
    {
      onRequest: requireRecordingWriter,
      schema: {
        tags,
        security: secured,
        summary: 'Delete a recording with its runs and centroids',
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('Deleted, with how many runs went with it', RecordingDeleteResult),
        },
      },
    },
    async (request, reply) => {
      const orgId = principalOf(request).orgId;
      const ref = recordingRef(request);
      const recording = await findRecording(db, orgId, ref);
      const runsDeleted = recording && (await deleteRecording(db, orgId, recording.id));
      if (!recording || runsDeleted === undefined)
        throw new ApiError(404, 'recording_not_found', `No recording "${ref}"`);
      request.log.info({ mediaKey: recording.mediaKey, runsDeleted }, 'recording deleted');
      return sendJson(reply, 200, {
        data: { id: recording.id, mediaKey: recording.mediaKey, deleted: true, runsDeleted },
      });
    },
  );
}
