// Runs in and out of other tools' files: POST /detections/import reads a file into a run through the pipeline of
// POST /detections (its upload reading, validateRun, the same store path), GET /detections/{runId}/export writes a
// stored run as a file. The formats themselves are the pure core in src/formats/.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireReader, requireWriter } from '../auth/authenticate.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { Type } from 'typebox';
import { ApiError } from '../http/problem.js';
import { jsonStream } from '../http/json-chunks.js';
import { sendJson, sendMaybeCompressed } from '../http/send-json.js';
import { skipSchemaValidation } from '../http/skip-validation.js';
import { resolveTarget, type Recording } from '../recordings/queries.js';
import {
  FormatError,
  fileNameFor,
  filledTrackLength,
  formatNames,
  formats,
  importRun,
  interpolate,
  isFormatName,
  readBytes,
  readerFor,
  type ExportRun,
  type FormatName,
  type FormatReader,
} from '../formats/index.js';
import { ExportQuery, ImportQuery, ImportResult, RunIdParams } from './api-schemas.js';
import { findOneRun, readFoundRun } from './find-run.js';
import { readImportBody, type ImportBody } from './import-body.js';
import { MAX_BODY_BYTES, MAX_BOXES_PER_TRACK } from './limits.js';
import { summaryForApi } from './queries.js';
import { decodeBoxes } from './run-codec.js';
import type { TrackHeader } from './run-types.js';
import { storeValidatedRun } from './store-run.js';
import type { RunUploadOptions } from './run-upload.js';

const secured = [{ bearer: [] }];

/**
 * The content types each format's file is taken as. Each format's own type (the one its export answers with), and
 * the other name tools commonly send for the same bytes; anything else is 415 before the body is read.
 */
export const IMPORT_CONTENT_TYPES: Readonly<Record<FormatName, readonly string[]>> = {
  mot: ['text/plain', 'text/csv'],
  'cvat-video': ['application/xml', 'text/xml'],
  coco: ['application/json'],
  yolo: ['application/zip', 'application/x-zip-compressed'],
  'supervision-csv': ['text/csv', 'text/plain'],
  kitti: ['text/plain'],
  sightline: ['application/json'],
};
const ALL_IMPORT_TYPES = [...new Set(Object.values(IMPORT_CONTENT_TYPES).flat())];
/** The readers decode UTF-8 (ASCII is a part of it); a file in another charset would be read as other text. */
const READABLE_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

interface ImportParams {
  format: FormatName;
  mediaKey?: string;
  analysisId?: string;
  runId?: string;
  source: { kind?: string; name?: string; version?: string };
  name?: string;
  width?: number;
  height?: number;
  interpolate: boolean;
  flavor?: 'gt' | 'results';
}

const invalidField = (field: string, detail: string) => new ApiError(400, 'invalid_field', detail, { field });

/** A query member given once (a repeated one is an array): the last value, as the query string reads. */
function single(query: Record<string, unknown>, field: string): string | undefined {
  const value = query[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField(field, `${field} may be given only once`);
  return value;
}

function formatOf(query: Record<string, unknown>): FormatName {
  const format = single(query, 'format');
  if (!format) throw invalidField('format', `Add ?format=<name>, one of ${formatNames.join(', ')}`);
  if (!isFormatName(format))
    throw invalidField('format', `Unknown format "${format}"; the formats are ${formatNames.join(', ')}`);
  return format;
}

function switchOf(query: Record<string, unknown>, field: string): boolean {
  const value = single(query, field);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw invalidField(field, `${field} is true or false, got "${value}"`);
}

function flavorOf(query: Record<string, unknown>): 'gt' | 'results' | undefined {
  const value = single(query, 'flavor');
  if (value === undefined || value === 'gt' || value === 'results') return value;
  throw invalidField('flavor', `flavor is gt or results, got "${value}"`);
}

function sizeOf(query: Record<string, unknown>, field: 'width' | 'height'): number | undefined {
  const value = single(query, field);
  if (value === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(n > 0 && Number.isFinite(n)))
    throw invalidField(field, `${field} must be a number greater than 0, got "${value}"`);
  return n;
}

function importParams(request: FastifyRequest): ImportParams {
  const query = request.query as Record<string, unknown>;
  const format = formatOf(query);
  const flavor = flavorOf(query);
  const width = sizeOf(query, 'width');
  const height = sizeOf(query, 'height');
  if ((width === undefined) !== (height === undefined))
    throw invalidField(width === undefined ? 'width' : 'height', 'Give width and height together, or neither');
  const mediaKey = single(query, 'mediaKey') || undefined;
  const analysisId = single(query, 'analysisId') || undefined;
  if (!mediaKey && !analysisId)
    throw new ApiError(400, 'target_missing', 'Name the recording with ?mediaKey= or ?analysisId=');
  return {
    format,
    mediaKey,
    analysisId,
    runId: single(query, 'runId'),
    source: {
      kind: single(query, 'sourceKind'),
      name: single(query, 'sourceName'),
      version: single(query, 'sourceVersion'),
    },
    name: single(query, 'name'),
    width,
    height,
    interpolate: switchOf(query, 'interpolate'),
    flavor,
  };
}

/** 415 unless the body's type is one the format is taken as, in a charset the readers decode. */
function checkContentType(request: FastifyRequest, format: FormatName): void {
  const accepted = IMPORT_CONTENT_TYPES[format];
  const header = request.headers['content-type'] ?? '';
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/^"|"$/g, '');
  const refuse = (why: string) =>
    new ApiError(415, 'unsupported_media_type', `${why}; a ${format} file is sent as ${accepted.join(' or ')}`, {
      accepted,
    });
  if (!accepted.includes(type)) throw refuse(header ? `Content-Type "${header}" is not taken here` : 'No Content-Type');
  if (charset !== undefined && !READABLE_CHARSETS.has(charset)) throw refuse(`The charset "${charset}" is not UTF-8`);
}

/** What the import's checks found before its body: the parameters and the recording (undefined: answered 404 later). */
const importOf = new WeakMap<FastifyRequest, { params: ImportParams; recording: Recording | undefined }>();

/**
 * The checks that need no body, before a byte of it is read: the parameters (400), then the content type (415). The
 * recording is looked up here too, as a pixel file without a frame size of its own is read with the recording's.
 */
async function checkImportRequest(request: FastifyRequest): Promise<void> {
  const params = importParams(request);
  checkContentType(request, params.format);
  const recording = await resolveTarget(request.server.store.db, principalOf(request).orgId, targetOf(params));
  importOf.set(request, { params, recording });
}

const targetOf = (params: ImportParams) =>
  params.mediaKey !== undefined ? { mediaKey: params.mediaKey } : { analysisId: params.analysisId };

const givenSize = (params: ImportParams) =>
  params.width !== undefined ? { width: params.width, height: params.height } : undefined;

function readerOf(params: ImportParams, recording: Recording | undefined) {
  return readerFor(params.format, {
    flavor: params.flavor,
    frameSize: givenSize(params),
    recordingSize: recording
      ? { width: recording.width ?? undefined, height: recording.height ?? undefined }
      : undefined,
  });
}

function readEmpty(reader: FormatReader): ImportBody['outcome'] {
  try {
    return { read: readBytes(reader, Buffer.alloc(0)) };
  } catch (failure) {
    return { failure };
  }
}

/** A reader's whole-file failure as the API answers it, with the first problem's position as its own members. */
function formatProblem(err: FormatError): ApiError {
  const status = err.code === 'payload_too_large' ? 413 : 400;
  return new ApiError(status, err.code, err.message, { ...err.position });
}

export async function formatRoutes(app: FastifyInstance, { uploads }: { uploads: RunUploadOptions }): Promise<void> {
  const db = app.store.db;
  // The body is the file, whatever the format (the route checked its type before it was read), read by the format's
  // reader as it arrives (import-body.ts); listened to from the start like any body, as a coded one may fail at once.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(ALL_IMPORT_TYPES, (request: FastifyRequest, payload: Readable) => {
    const { params, recording } = importOf.get(request)!;
    return readImportBody(payload, {
      reader: readerOf(params, recording),
      limit: request.routeOptions.bodyLimit ?? MAX_BODY_BYTES,
      contentLength: Number(request.headers['content-length']),
      hash: params.runId === undefined,
    });
  });

  app.post(
    '/detections/import',
    {
      ...uploads,
      onRequest: [requireWriter, checkImportRequest],
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['detections'],
        summary: 'Import a run from a file of another tool (MOT, CVAT, COCO, YOLO, supervision, KITTI, run JSON)',
        security: secured,
        description:
          "The body is the file itself, sent as its format's content type: mot text/plain or text/csv; cvat-video application/xml or text/xml; " +
          'coco and sightline application/json; yolo application/zip (or application/x-zip-compressed); supervision-csv text/csv or text/plain; ' +
          'kitti text/plain (any other type, or a charset other than UTF-8 → 415 unsupported_media_type). Authentication, roles, the 32 MiB limit, ' +
          'idempotency on runId, validation, warnings and statuses are those of POST /detections. Without runId, the run is ' +
          "the file's own (a run JSON's source.runId), else `<format>-<first 32 hex digits of the file's SHA-256>`, so that importing " +
          'the same file again replaces it (200). Every rejection names its place in the file (line, element, index or entry); a row ' +
          'that cannot be read is rejected as row_malformed and the rest is stored (207). 400 invalid_file (with the position of the ' +
          'first problem) for a file that cannot be read at all, media_required for pixel coordinates without a frame size ' +
          "(the file's, else width/height, else the recording's), invalid_field for an unknown format or parameter value; 404 recording_not_found.",
        querystring: ImportQuery,
        // Documentation only: the body is the file, read as bytes, whichever of these types it is sent as.
        [DOCUMENTED_REQUEST]: {
          body: Type.String({
            format: 'binary',
            description: "The file itself, as its format's content type",
            // Two rows of a MOT results file (frame, id, left, top, width, height, confidence, -1, -1, -1).
            examples: ['1,1,100,120,80,80,0.9,-1,-1,-1\n2,1,104,121,80,80,0.9,-1,-1,-1\n'],
          }),
          consumes: ALL_IMPORT_TYPES,
        },
        [DOCUMENTED_RESPONSES]: {
          201: jsonResponse('A new run, every row stored', ImportResult),
          200: jsonResponse('The run with this runId was replaced, every row stored', ImportResult),
          207: jsonResponse('Stored, with the rows and boxes that were not listed in `rejected`', ImportResult),
        },
      },
    },
    async (request, reply) => {
      const { params, recording } = importOf.get(request)!;
      // A request without a body is an empty file, which every reader refuses with the position of the problem.
      const body = (request.body as ImportBody | undefined) ?? {
        outcome: readEmpty(readerOf(params, recording)),
        sha256: createHash('sha256').digest('hex'),
      };
      if ('failure' in body.outcome) {
        const { failure } = body.outcome;
        throw failure instanceof FormatError ? formatProblem(failure) : failure;
      }
      let outcome: ReturnType<typeof importRun>;
      try {
        outcome = importRun(body.outcome.read, {
          target: targetOf(params),
          runId: params.runId,
          // Without a runId, the same file imported again is the same run (answered 200), not a second copy of it.
          fallbackRunId: () => `${params.format}-${body.sha256!.slice(0, 32)}`,
          source: params.source,
          name: params.name,
          frameSize: givenSize(params),
          interpolate: params.interpolate,
        });
      } catch (err) {
        if (err instanceof FormatError) throw formatProblem(err);
        throw err;
      }
      if (!outcome.ok) throw new ApiError(400, outcome.code, outcome.detail, outcome.extensions);
      const { run, rejected } = outcome;
      const status = await storeValidatedRun(request, run, rejected, { found: recording });
      const answer = {
        runId: run.meta.runId,
        tracksStored: run.boxes.headers.length,
        boxesStored: run.boxes.count,
        rejected,
        warnings: run.warnings,
      };
      // A long list is written piece by piece, as POST /detections writes its own.
      if (!rejected.streams) return sendJson(reply, status, answer);
      reply.code(status).type('application/json; charset=utf-8');
      return sendMaybeCompressed(reply, jsonStream(answer));
    },
  );

  app.get(
    '/detections/:runId/export',
    {
      onRequest: requireReader,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['detections'],
        summary: 'Export one run as a file of another tool',
        security: secured,
        description:
          "The run written in `format`, as an attachment (Content-Disposition) with the format's content type; streamed. Any role. " +
          '404 run_not_found and 409 ambiguous_run_id as GET /detections/{runId}; 400 invalid_field for an unknown format; ' +
          "400 media_required for a pixel format when neither the run's media nor its recording has a frame size; " +
          '400 too_many_boxes when interpolate=true would give a track more than 100 000 boxes.',
        params: RunIdParams,
        querystring: ExportQuery,
        [DOCUMENTED_RESPONSES]: {
          200: {
            description: 'The file',
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename="<run name or runId><extension>"',
                schema: { type: 'string' },
              },
            },
            content: Object.fromEntries(
              [...new Set(Object.values(formats).map((f) => f.contentType))].map((type) => [
                type,
                { schema: { type: 'string', format: type === 'application/zip' ? 'binary' : undefined } },
              ]),
            ),
          },
        },
      },
    },
    async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const query = request.query as Record<string, unknown>;
      const format = formatOf(query);
      const flavor = flavorOf(query);
      const filled = switchOf(query, 'interpolate');
      const mediaKey = single(query, 'mediaKey') || undefined;
      const found = await findOneRun(request, runId, mediaKey);
      // The run's recording is looked up while its body is read (on PostgreSQL, one round trip less before the
      // first byte). A run without a frame size of its own (imported from YOLO, posted normalised) is written with
      // its recording's, and one without a frame count with its recording's: COCO then has an image for every
      // frame of the recording.
      const [{ row, body }, recording] = await Promise.all([
        readFoundRun(request, found),
        resolveTarget(db, principalOf(request).orgId, { mediaKey: found.media_key }),
      ]);
      const summary = summaryForApi(row) as { source: Record<string, unknown>; media: Record<string, unknown> | null };
      const headers = JSON.parse(body.tracks) as TrackHeader[];
      let run: ExportRun = {
        boxes: { headers, columns: decodeBoxes(body.boxes), count: row.boxes_stored },
        runId: row.run_id,
        ...(row.name !== null ? { name: row.name } : {}),
        source: summary.source,
        ...(summary.media ? { media: summary.media } : {}),
        categories: row.categories === null ? undefined : (JSON.parse(row.categories) as unknown[]),
      };
      if (filled) {
        const longest = filledTrackLength(run.boxes);
        if (longest > MAX_BOXES_PER_TRACK) {
          throw new ApiError(
            400,
            'too_many_boxes',
            `Interpolated, a track would have ${longest} boxes; a track holds at most ${MAX_BOXES_PER_TRACK}`,
          );
        }
        const result = interpolate(run.boxes);
        run = { ...run, boxes: result.boxes, interpolated: result.interpolated };
      }
      const frameSize =
        recording && formats[format].pixel
          ? { width: recording.width ?? undefined, height: recording.height ?? undefined }
          : undefined;
      if (typeof run.media?.frameCount !== 'number' && recording?.frameCount != null) {
        run = { ...run, media: { ...run.media, frameCount: recording.frameCount } };
      }
      return sendFile(reply, format, run, { flavor, frameSize }, row.name ?? row.run_id);
    },
  );
}

/**
 * The writer's pieces as the answer's body, as they are made. The first piece is made before the answer starts, so
 * that a run the format cannot hold (no frame size) is still a 400, not a broken 200.
 */
function sendFile(
  reply: FastifyReply,
  format: FormatName,
  run: ExportRun,
  options: { flavor?: 'gt' | 'results'; frameSize?: { width?: number; height?: number } },
  stem: string,
) {
  const pieces = formats[format].writer(run, options);
  let first: IteratorResult<string | Uint8Array>;
  try {
    first = pieces.next();
  } catch (err) {
    if (err instanceof FormatError) throw formatProblem(err);
    throw err;
  }
  function* all(): Generator<Buffer> {
    if (first.done) return;
    yield Buffer.from(first.value);
    for (const piece of { [Symbol.iterator]: () => pieces }) yield Buffer.from(piece);
  }
  reply
    .code(200)
    .type(formats[format].contentType)
    .header('Content-Disposition', `attachment; filename="${fileNameFor(format, stem)}"`);
  return sendMaybeCompressed(reply, Readable.from(all(), { objectMode: false }));
}
