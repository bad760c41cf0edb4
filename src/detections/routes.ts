import { isUtf8 } from 'node:buffer';
import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { skipSchemaValidation } from '../http/skip-validation.js';
import { principalOf, requireReader, requireWriter } from '../auth/authenticate.js';
import { useJsonBodyParser } from '../http/json-body.js';
import { ApiError } from '../http/problem.js';
import { Semaphore } from '../util/semaphore.js';
import { watchRate, type RateWatched } from '../http/minimum-rate.js';
import { isForeignKeyViolation } from '../db/foreign-key-violation.js';
import { sendJson, sendMaybeCompressed } from '../http/send-json.js';
import { jsonStream } from '../http/json-chunks.js';
import { resolveTarget } from '../recordings/queries.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import {
  ByIdQuery,
  DetectionRunBody,
  DocumentedListQuery,
  ListQuery,
  PostResult,
  RunDeleteResult,
  RunIdParams,
  RunListResult,
  RunResult,
} from './api-schemas.js';
import { MAX_BODY_BYTES } from './limits.js';
import {
  deleteRun,
  findRunsByRunId,
  fullRunForApi,
  listRunSummaries,
  summaryForApi,
  upsertRun,
  type SummaryRow,
} from './queries.js';
import { readRunBody } from './run-body-reader.js';
import { readConsistentRun } from './consistent-run.js';
import { parseRunJson } from './run-json-parser.js';
import { runJsonStream, runListJsonStream } from './run-json-stream.js';

/** Runs with this many boxes or more are streamed (about 2 MiB of JSON). */
const STREAM_FROM_BOXES = 20_000;
import { validateRun } from './validate-run.js';

const secured = [{ bearer: [] }];

async function findOneRun(request: FastifyRequest, runId: string, mediaKey: string | undefined): Promise<SummaryRow> {
  if (runId === '') throw new ApiError(400, 'run_id_missing', 'Put the runId in the path: /detections/{runId}');
  const rows = await findRunsByRunId(request.server.store.db, principalOf(request).orgId, runId, mediaKey);
  if (rows.length === 0)
    throw new ApiError(404, 'run_not_found', `No run "${runId}"${mediaKey ? ` on recording "${mediaKey}"` : ''}`);
  if (rows.length > 1) {
    throw new ApiError(
      409,
      'ambiguous_run_id',
      `runId "${runId}" exists on several recordings; add ?mediaKey= to choose one`,
      {
        mediaKeys: rows.map((r) => r.media_key),
      },
    );
  }
  return rows[0]!;
}

const runIdMissing = async () => {
  throw new ApiError(400, 'run_id_missing', 'Put the runId in the path: /detections/{runId}');
};

/**
 * Bodies over this size (or of unknown size) are read, parsed and handled at most LARGE_BODY_SLOTS at a time. A valid
 * 30 MiB run parses into packed numbers, but a body may be 32 MiB of anything its unknown members hold: eleven
 * million `{}` parse into ~1 GB of objects, and ten such requests at once exhausted the heap and killed the server.
 * The others wait before their bodies are read, so TCP holds their bytes, not this process.
 */
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
const LARGE_BODY_SLOTS = 2;

/** The body as it arrives, except that on passing `threshold` bytes it waits for `takeSlot` before going on. */
function slotAfter(payload: Readable, threshold: number, takeSlot: () => Promise<void>): Readable {
  let seen = 0;
  let slotted = false;
  const gated = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (slotted || seen <= threshold) return callback(null, chunk);
      slotted = true;
      takeSlot().then(() => callback(null, chunk), callback);
    },
  });
  // pipeline, not pipe: a client that goes away mid-body ends the gated stream too, instead of leaving it open.
  pipeline(payload, gated, () => {});
  return gated;
}

export async function detectionRoutes(app: FastifyInstance): Promise<void> {
  const db = app.store.db;
  const largeBodies = new Semaphore(LARGE_BODY_SLOTS);
  // A body holding one of those turns must keep coming, or it gives the turn up with a 408.
  const minimumRate = app.config.largeUploadMinimumRate;
  const holding = new WeakSet<FastifyRequest>();
  const watches = new WeakMap<FastifyRequest, RateWatched>();
  const releaseLargeBody = async (request: FastifyRequest) => {
    watches.get(request)?.stop();
    if (holding.delete(request)) largeBodies.release();
  };
  // Runs are read from the body's bytes with their boxes packed (run-json-parser.ts); JSON.parse when it declines.
  // Bytes that are not UTF-8 are refused rather than decoded with U+FFFD: a runId "bad\xff" would be stored, and
  // answered, as another runId than the one sent (a few ms for 30 MiB).
  useJsonBodyParser(app, (body) => {
    if (!isUtf8(body)) throw new ApiError(400, 'malformed_json', 'The body is not valid UTF-8');
    return parseRunJson(body);
  });

  app.post(
    '/detections',
    {
      bodyLimit: MAX_BODY_BYTES,
      onRequest: requireWriter,
      preParsing: async (request, reply, payload) => {
        const length = Number(request.headers['content-length']);
        // Over the limit: Fastify answers 413 from the header, at once, without a turn.
        if (Number.isFinite(length) && (length <= LARGE_BODY_BYTES || length > MAX_BODY_BYTES)) return payload;
        /** False when the request was over (the client gone) by the time its turn came: the turn went back. */
        const takeSlot = async () => {
          await largeBodies.acquire();
          // A client that gave up while waiting has already passed onRequestAbort: its slot goes back now.
          if (request.raw.destroyed || reply.raw.destroyed || reply.raw.writableFinished) {
            largeBodies.release();
            return false;
          }
          holding.add(request);
          // The answer's end in every case: onResponse does not run for a streamed answer the client drops half-way.
          reply.raw.once('close', () => void releaseLargeBody(request));
          return true;
        };
        if (Number.isFinite(length)) {
          if (!(await takeSlot())) return payload;
          const watched = watchRate(payload, minimumRate);
          watches.set(request, watched);
          watched.start();
          return watched.stream;
        }
        // A chunked body of unknown length is read freely until it turns out large: small chunked runs never wait
        // for the slots (two stalled chunked uploads held both, and every other chunked post waited behind them).
        const watched = watchRate(
          slotAfter(payload, LARGE_BODY_BYTES, async () => {
            if (await takeSlot()) watched.start();
          }),
          minimumRate,
        );
        watches.set(request, watched);
        return watched.stream;
      },
      onResponse: releaseLargeBody,
      onRequestAbort: releaseLargeBody,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['detections'],
        summary: 'Deliver one detection run for one recording',
        security: secured,
        description:
          'Statuses: 201 new run, 200 replaced (same source.runId), 207 stored with rejected boxes, 400 nothing stored, ' +
          '404 recording_not_found, 413 a body over 32 MiB (refused before it is read), 415 not application/json. A box that breaks a box rule ' +
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
      if (boxes.count === 0) {
        throw new ApiError(400, 'all_boxes_rejected', 'Every box of the run was rejected; nothing was stored', {
          runId: meta.runId,
          rejected,
          warnings,
        });
      }
      const principal = principalOf(request);
      const recording = await resolveTarget(db, principal.orgId, meta);
      if (!recording) {
        const named = meta.mediaKey !== undefined ? `mediaKey "${meta.mediaKey}"` : `analysisId "${meta.analysisId}"`;
        throw new ApiError(404, 'recording_not_found', `No recording with ${named}`);
      }
      const stored = await upsertRun(app.store, principal.orgId, recording, result).catch((err: unknown) => {
        // The recording was deleted (by a user or the retention sweep) between its lookup and the write.
        if (isForeignKeyViolation(err))
          throw new ApiError(404, 'recording_not_found', `No recording with mediaKey "${recording.mediaKey}"`);
        throw err;
      });
      request.log.info(
        { runId: meta.runId, mediaKey: recording.mediaKey, boxes: boxes.count, created: stored.created },
        'run stored',
      );
      const status = rejected.length > 0 ? 207 : stored.created ? 201 : 200;
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
      const readRun = (row: SummaryRow) =>
        readConsistentRun(
          (id) => readRunBody(app.store, id),
          row,
          async () => (await findRunsByRunId(db, orgId, row.run_id, recording.mediaKey))[0],
        );
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
        querystring: ByIdQuery,
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The stored run with its tracks', RunResult) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const { mediaKey } = request.query as { mediaKey?: string };
      const run = await readConsistentRun(
        (id) => readRunBody(app.store, id),
        await findOneRun(request, runId, mediaKey || undefined),
        async () =>
          findOneRun(request, runId, mediaKey || undefined).catch((err: unknown) => {
            if (err instanceof ApiError && err.code === 'run_not_found') return undefined;
            throw err;
          }),
      );
      if (!run) throw new ApiError(404, 'run_not_found', `No run "${runId}"`);
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
}
