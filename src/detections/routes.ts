import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { skipSchemaValidation } from '../http/skip-validation.js';
import { principalOf, requireReader, requireWriter } from '../auth/authenticate.js';
import { useJsonBodyParser } from '../http/json-body.js';
import { ApiError } from '../http/problem.js';
import { sendJson, sendMaybeCompressed } from '../http/send-json.js';
import { jsonStream } from '../http/json-chunks.js';
import { resolveTarget } from '../recordings/queries.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import {
  ByIdQuery,
  DetectionRunBody,
  ReadQuery,
  DocumentedListQuery,
  ListQuery,
  PostResult,
  RunDeleteResult,
  RunIdParams,
  RunListResult,
  RunResult,
} from './api-schemas.js';
import { deleteRun, fullRunForApi, listRunSummaries, summaryForApi, type SummaryRow } from './queries.js';
import { readRunSnapshot } from './run-body-reader.js';
import { readOneRun, findOneRun } from './find-run.js';
import { storeValidatedRun } from './store-run.js';
import type { RunUploadOptions } from './run-upload.js';
import { parseRunJson } from './run-json-parser.js';
import { runJsonStream, runListJsonStream } from './run-json-stream.js';

/** Runs with this many boxes or more are streamed (about 2 MiB of JSON). */
const STREAM_FROM_BOXES = 20_000;
import { validateRun } from './validate-run.js';
import { readRevision } from './revision-queries.js';
import { revisionNotFound, revisionNumber, revisionRoutes } from './revision-routes.js';
import { runOf } from './run-delta.js';
import { tracksForApi } from './run-codec.js';

const secured = [{ bearer: [] }];

const runIdMissing = async () => {
  throw new ApiError(400, 'run_id_missing', 'Put the runId in the path: /detections/{runId}');
};

export async function detectionRoutes(app: FastifyInstance, { uploads }: { uploads: RunUploadOptions }): Promise<void> {
  const db = app.store.db;
  // Runs are read from the body's bytes with their boxes packed (run-json-parser.ts); JSON.parse when it declines.
  // Bytes that are not UTF-8 are refused rather than decoded with U+FFFD: a runId "bad\xff" would be stored, and
  // answered, as another runId than the one sent (a few ms for 30 MiB).
  // The run parser bounds nesting itself (MAX_BODY_DEPTH, invalid_body): a run's categories and meta nest deeper than
  // other bodies may, and are judged by the validator (invalid_field).
  useJsonBodyParser(
    app,
    (body) => {
      if (!isUtf8(body)) throw new ApiError(400, 'malformed_json', 'The body is not valid UTF-8');
      return parseRunJson(body);
    },
    null,
  );

  app.post(
    '/detections',
    {
      ...uploads,
      onRequest: requireWriter,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['detections'],
        summary: 'Deliver one detection run for one recording',
        security: secured,
        description:
          'Statuses: 201 new run, 200 replaced (same source.runId), 207 stored with rejected boxes, 400 nothing stored, ' +
          '404 recording_not_found, 413 a body over 32 MiB (refused before it is read, or while it is decoded), 415 not application/json or ' +
          'a Content-Encoding other than gzip, deflate, br or identity; a coded body that does not decode is 400 malformed_body. A box that breaks a box rule ' +
          '(a bad frame, no geometry, w or h ≤ 0, outside the frame) rejects only that box: it is listed in `rejected` and the run answers 207.',
        body: DetectionRunBody,
        response: { 201: PostResult, 200: PostResult, 207: PostResult },
        [DOCUMENTED_RESPONSES]: {
          201: jsonResponse('A new run, every box stored', PostResult),
          200: jsonResponse('The run with this source.runId was replaced, every box stored', PostResult),
          207: jsonResponse('Stored, with the rejected boxes listed in `rejected`', PostResult),
        },
      },
    },
    async (request, reply) => {
      const contentType = request.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(contentType))
        throw new ApiError(415, 'unsupported_media_type', 'Send the run as application/json');
      const result = validateRun(request.body);
      if (!result.ok) throw new ApiError(400, result.code, result.detail, result.extensions);
      const { meta, boxes, rejected, warnings } = result;
      const status = await storeValidatedRun(request, result, rejected);
      const answer = {
        runId: meta.runId,
        tracksStored: boxes.headers.length,
        boxesStored: boxes.count,
        rejected,
        warnings,
      };
      if (!rejected.streams) return sendJson(reply, status, answer);
      reply.code(status).type('application/json; charset=utf-8');
      return sendMaybeCompressed(reply, jsonStream(answer));
    },
  );

  app.get(
    '/detections',
    {
      onRequest: requireReader,
      schema: {
        tags: ['detections'],
        summary: "List a recording's runs, oldest first",
        security: secured,
        querystring: ListQuery,
        [DOCUMENTED_REQUEST]: { querystring: DocumentedListQuery },
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('The runs: summaries, or full runs (with tracks) with include=tracks', RunListResult),
        },
      },
    },
    async (request, reply) => {
      const { mediaKey, include } = request.query as { mediaKey?: string; include?: string };
      if (!mediaKey) throw new ApiError(400, 'media_key_missing', 'Add ?mediaKey=<recording key>');
      // A typo (`include=track`) must not quietly answer summaries where the caller wanted tracks.
      const included = include
        ? include
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : [];
      const unknown = included.find((part) => part !== 'tracks');
      if (unknown !== undefined)
        throw new ApiError(400, 'invalid_field', `include takes "tracks" only, got "${unknown}"`, { field: 'include' });
      const orgId = principalOf(request).orgId;
      const recording = await resolveTarget(db, orgId, { mediaKey });
      if (!recording) throw new ApiError(404, 'recording_not_found', `No recording with mediaKey "${mediaKey}"`);
      const rows = await listRunSummaries(db, orgId, recording.id);
      const withTracks = included.length > 0;
      const readRun = (row: SummaryRow) => readRunSnapshot(app.store, orgId, row.id);
      if (withTracks && rows.reduce((n, row) => n + row.boxes_stored, 0) >= STREAM_FROM_BOXES) {
        const stream = runListJsonStream(
          recording.mediaKey,
          rows.map((row) => async () => {
            const run = await readRun(row);
            return run && { summary: summaryForApi(run.row), body: run.body };
          }),
        );
        reply.type('application/json; charset=utf-8');
        return sendMaybeCompressed(reply, stream);
      }
      const runs = [];
      for (const row of rows) {
        if (!withTracks) {
          runs.push(summaryForApi(row));
          continue;
        }
        const run = await readRun(row);
        if (run) runs.push(fullRunForApi(run.row, run.body));
      }
      return sendJson(reply, 200, { data: { mediaKey: recording.mediaKey, runs } });
    },
  );

  app.get('/detections/', { onRequest: requireReader, schema: { hide: true } }, runIdMissing);
  app.delete('/detections', { onRequest: requireWriter, schema: { hide: true } }, runIdMissing);
  app.delete('/detections/', { onRequest: requireWriter, schema: { hide: true } }, runIdMissing);

  app.get(
    '/detections/:runId',
    {
      onRequest: requireReader,
      schema: {
        tags: ['detections'],
        summary: 'Fetch one run with its tracks',
        security: secured,
        params: RunIdParams,
        querystring: ReadQuery,
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('The stored run (or one of its revisions) with its tracks', RunResult),
        },
      },
    },
    async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const { mediaKey, revision } = request.query as { mediaKey?: string; revision?: string };
      const run = await readOneRun(request, runId, mediaKey || undefined);
      if (revision !== undefined) {
        const n = revisionNumber(revision);
        if (n !== run.row.revision) {
          const older =
            n === undefined ? undefined : await readRevision(db, principalOf(request).orgId, run.row, run.body, n);
          if (!older) throw revisionNotFound(runId, revision);
          const { headers, columns } = runOf(older.content.tracks);
          return sendJson(reply, 200, {
            data: { ...summaryForApi(older.row), tracks: tracksForApi(headers, columns) },
          });
        }
      }
      const { row, body } = run;
      if (row.boxes_stored < STREAM_FROM_BOXES) return sendJson(reply, 200, { data: fullRunForApi(row, body) });
      const stream = runJsonStream(summaryForApi(row), body);
      reply.type('application/json; charset=utf-8');
      return sendMaybeCompressed(reply, stream);
    },
  );

  app.delete(
    '/detections/:runId',
    {
      onRequest: requireWriter,
      schema: {
        tags: ['detections'],
        summary: 'Delete one run and its centroids',
        security: secured,
        params: RunIdParams,
        querystring: ByIdQuery,
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The run is deleted, with its centroids', RunDeleteResult) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const { mediaKey } = request.query as { mediaKey?: string };
      const row = await findOneRun(request, runId, mediaKey || undefined);
      if (!(await deleteRun(db, principalOf(request).orgId, row.id, row.recording_id)))
        throw new ApiError(404, 'run_not_found', `No run "${runId}"`);
      return sendJson(reply, 200, { data: { runId, mediaKey: row.media_key, deleted: true } });
    },
  );

  await revisionRoutes(app, uploads);
}
