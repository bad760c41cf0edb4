// Spec §9 over HTTP: PATCH /detections/{runId}, GET /detections/{runId}/revisions,
// POST /detections/{runId}/revisions/{N}/restore, and GET /detections/{runId}?revision=N (read-revision.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf, requireReader, requireWriter } from '../auth/authenticate.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { ApiError } from '../http/problem.js';
import { sendJson } from '../http/send-json.js';
import { skipSchemaValidation } from '../http/skip-validation.js';
import {
  ByIdQuery,
  PatchBody,
  PatchResult,
  RestoreResult,
  RevisionListResult,
  RevisionParams,
  RunIdParams,
} from './api-schemas.js';
import { editorOf } from './editor-of.js';
import { findOneRun, readOneRun } from './find-run.js';
import { planPatch } from './patch-plan.js';
import { readPatchTarget, storedTracksOf, trackCountOf } from './patch-target.js';
import { splitTracks } from './run-segments.js';
import { findRunsByRunId } from './queries.js';
import { checkPatchBody, patchChanges, validateUpserts } from './patch-request.js';
import type { SummaryRow } from './queries.js';
import { changeRunContent, headerOf, listRevisions, readRevision, type ContentChange } from './revision-queries.js';
import { boxCountOf, reverseDelta, tracksOf } from './run-delta.js';
import { decodeBoxes } from './run-codec.js';
import type { TrackHeader } from './run-types.js';
import type { RunUploadOptions } from './run-upload.js';

const secured = [{ bearer: [] }];

export function revisionConflict(currentRevision: number): ApiError {
  return new ApiError(
    409,
    'revision_conflict',
    `The run is at revision ${currentRevision} now: read it again and make the change on that revision`,
    { currentRevision },
  );
}

/** A revision number from the path or the query: a positive decimal integer, else 404 as for one never made. */
export function revisionNumber(text: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined;
}

export function revisionNotFound(runId: string, revision: string): ApiError {
  return new ApiError(404, 'revision_not_found', `Run "${runId}" keeps no revision "${revision}"`);
}

/** The answer to a failed conditional write: the run changed (409) or went (404) since it was read. */
function refused(change: ContentChange & { ok: false }, runId: string): ApiError {
  return change.currentRevision === undefined
    ? new ApiError(404, 'run_not_found', `No run "${runId}"`)
    : revisionConflict(change.currentRevision);
}

const currentTracks = (body: { tracks: string; boxes: Uint8Array }) =>
  tracksOf({ headers: JSON.parse(body.tracks) as TrackHeader[], columns: decodeBoxes(body.boxes), count: 0 });

const mediaOf = (row: SummaryRow) => (row.media === null ? null : (JSON.parse(row.media) as Record<string, unknown>));

/** The answer to a patch whose read met a change: 409 with the run's revision now, or 404 when it went. */
async function conflictOrGone(request: FastifyRequest, run: SummaryRow, runId: string): Promise<ApiError> {
  const rows = await findRunsByRunId(request.server.store.db, principalOf(request).orgId, run.run_id, run.media_key);
  return refused({ ok: false, currentRevision: rows[0]?.revision }, runId);
}

async function changeOptions(request: FastifyRequest) {
  const principal = principalOf(request);
  return {
    editedBy: await editorOf(request.server.store.db, principal),
    revisionsKept: request.server.config.runRevisionsKept,
  };
}

/** Registered inside detectionRoutes: the same body parser (packed boxes) and upload limits as POST /detections. */
export async function revisionRoutes(app: FastifyInstance, uploads: RunUploadOptions): Promise<void> {
  const store = app.store;

  app.patch(
    '/detections/:runId',
    {
      ...uploads,
      onRequest: requireWriter,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['detections'],
        summary: "Change some of a run's tracks",
        description:
          'Each upserted track replaces the track with its id or is added at the end; deleted ids go. Tracks are ' +
          'validated as in POST /detections (normalized boxes), with the same rejections and warnings. 200, or 207 ' +
          'when boxes were rejected; 400 nothing_to_change, all_boxes_rejected, track_not_found; 409 ' +
          'revision_conflict (with currentRevision) when baseRevision is not current, nothing changed; 413 over 32 MiB.',
        security: secured,
        params: RunIdParams,
        querystring: ByIdQuery,
        body: PatchBody,
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('The run changed: its new revision and counts', PatchResult),
          207: jsonResponse('Changed, with the rejected boxes listed in `rejected`', PatchResult),
        },
      },
    },
    async (request, reply) => {
      const contentType = request.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(contentType))
        throw new ApiError(415, 'unsupported_media_type', 'Send the patch as application/json');
      const { runId } = request.params as { runId: string };
      const { mediaKey } = request.query as { mediaKey?: string };
      const patch = checkPatchBody(request.body);
      if (!patch.ok) throw new ApiError(400, patch.code, patch.detail, patch.extensions);
      const found = await findOneRun(request, runId, mediaKey || undefined);
      if (patch.baseRevision !== found.revision) throw revisionConflict(found.revision);

      const upserts =
        patch.upsert.length === 0
          ? undefined
          : validateUpserts(patch.upsert, { mediaKey: found.media_key, runId, media: mediaOf(found) });
      if (upserts && !upserts.ok) throw new ApiError(400, upserts.code, upserts.detail, upserts.extensions);
      const rejected = upserts?.rejected ?? [];
      const warnings = upserts?.warnings ?? [];
      if (upserts && upserts.boxes.count === 0)
        throw new ApiError(400, 'all_boxes_rejected', 'Every upserted box was rejected; nothing changed', {
          runId,
          rejected,
          warnings,
        });
      const orgId = principalOf(request).orgId;
      const ids = new Set([...(upserts ? upserts.boxes.headers.map((h) => h.id) : []), ...patch.deletes]);
      const target = await readPatchTarget(store, orgId, found, [...ids]);
      if (!target) throw await conflictOrGone(request, found, runId);
      const row = target.run;
      if (patch.baseRevision !== row.revision) throw revisionConflict(row.revision);
      const changes = patchChanges(storedTracksOf(target, ids), trackCountOf(target), upserts, patch.deletes);
      if (!changes.ok) throw new ApiError(400, changes.code, changes.detail, changes.extensions);
      const plan = planPatch(row, target, changes);
      if (!plan) throw await conflictOrGone(request, found, runId);
      const change = await changeRunContent(store, orgId, {
        run: row,
        header: headerOf(row),
        ...plan,
        ...(await changeOptions(request)),
      });
      if (!change.ok) throw refused(change, runId);
      request.log.info({ runId, mediaKey: row.media_key, revision: change.revision }, 'run patched');
      return sendJson(reply, rejected.length > 0 ? 207 : 200, {
        runId,
        mediaKey: row.media_key,
        revision: change.revision,
        tracksStored: change.tracksStored,
        boxesStored: change.boxesStored,
        rejected,
        warnings,
      });
    },
  );

  app.get(
    '/detections/:runId/revisions',
    {
      onRequest: requireReader,
      schema: {
        tags: ['detections'],
        summary: "A run's revisions, newest first (the current one first)",
        security: secured,
        params: RunIdParams,
        querystring: ByIdQuery,
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The revisions the run keeps', RevisionListResult) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const { mediaKey } = request.query as { mediaKey?: string };
      // The summary and body of one version, so that the list's current entry and its older ones agree.
      const { row } = await readOneRun(request, runId, mediaKey || undefined);
      const revisions = await listRevisions(store.db, principalOf(request).orgId, row);
      return sendJson(reply, 200, { data: { runId, mediaKey: row.media_key, revisions } });
    },
  );

  app.post(
    '/detections/:runId/revisions/:revision/restore',
    {
      onRequest: requireWriter,
      schema: {
        tags: ['detections'],
        summary: "Make an earlier revision's content current again, under a new revision",
        description:
          '404 revision_not_found for a revision the run does not keep; 400 nothing_to_change for the current ' +
          'one; 409 revision_conflict when the run changed while the restore was made.',
        security: secured,
        params: RevisionParams,
        querystring: ByIdQuery,
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('Restored: the new revision', RestoreResult) },
      },
    },
    async (request, reply) => {
      const { runId, revision } = request.params as { runId: string; revision: string };
      const { mediaKey } = request.query as { mediaKey?: string };
      const n = revisionNumber(revision);
      const { row, body } = await readOneRun(request, runId, mediaKey || undefined);
      if (n === row.revision)
        throw new ApiError(400, 'nothing_to_change', `Revision ${n} is the current one: there is nothing to restore`);
      const orgId = principalOf(request).orgId;
      const older = n === undefined ? undefined : await readRevision(store.db, orgId, row, body, n);
      if (!older) throw revisionNotFound(runId, revision);
      const current = currentTracks(body);
      const tracks = older.content.tracks;
      const change = await changeRunContent(store, orgId, {
        run: row,
        header: older.content.header,
        delta: reverseDelta(current, tracks),
        tracksStored: tracks.length,
        boxesStored: boxCountOf(tracks),
        segments: { all: true, write: splitTracks(tracks) },
        ...(await changeOptions(request)),
      });
      if (!change.ok) throw refused(change, runId);
      request.log.info({ runId, mediaKey: row.media_key, revision: change.revision, from: n }, 'run restored');
      return sendJson(reply, 200, {
        data: {
          runId,
          mediaKey: row.media_key,
          revision: change.revision,
          restoredFrom: n,
          tracksStored: change.tracksStored,
          boxesStored: change.boxesStored,
        },
      });
    },
  );
}
