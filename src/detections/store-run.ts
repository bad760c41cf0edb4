// The end of every route that stores a validated run (POST /detections, POST /detections/import): the 400 for a run
// with no box left, the recording, the upsert, and the status the answer carries.
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authenticate.js';
import { isForeignKeyViolation } from '../db/foreign-key-violation.js';
import { ApiError } from '../http/problem.js';
import { resolveTarget, type Recording } from '../recordings/queries.js';
import { upsertRun } from './queries.js';
import { editorOf } from './editor-of.js';
import type { ValidatedRun } from './validate-run.js';

/**
 * Stores the run and answers its status: 207 when `rejected` lists anything, else 201 (new) or 200 (replaced).
 * `rejected` is what the answer lists (the import adds rows it could not read to the validator's list); `recording`
 * is the target when the route has looked it up already (undefined: it does not exist).
 */
export async function storeValidatedRun(
  request: FastifyRequest,
  result: ValidatedRun,
  rejected: { length: number },
  recording?: { found: Recording | undefined },
): Promise<201 | 200 | 207> {
  const { meta, boxes, warnings } = result;
  if (boxes.count === 0) {
    throw new ApiError(400, 'all_boxes_rejected', 'Every box of the run was rejected; nothing was stored', {
      runId: meta.runId,
      rejected,
      warnings,
    });
  }
  const principal = principalOf(request);
  const target = recording ? recording.found : await resolveTarget(request.server.store.db, principal.orgId, meta);
  if (!target) {
    const named = meta.mediaKey !== undefined ? `mediaKey "${meta.mediaKey}"` : `analysisId "${meta.analysisId}"`;
    throw new ApiError(404, 'recording_not_found', `No recording with ${named}`);
  }
  const store = request.server.store;
  const options = {
    editedBy: await editorOf(store.db, principal),
    revisionsKept: request.server.config.runRevisionsKept,
  };
  const stored = await upsertRun(store, principal.orgId, target, result, options).catch((err: unknown) => {
    // The recording was deleted (by a user or the retention sweep) between its lookup and the write.
    if (isForeignKeyViolation(err))
      throw new ApiError(404, 'recording_not_found', `No recording with mediaKey "${target.mediaKey}"`);
    throw err;
  });
  request.log.info(
    { runId: meta.runId, mediaKey: target.mediaKey, boxes: boxes.count, created: stored.created },
    'run stored',
  );
  return rejected.length > 0 ? 207 : stored.created ? 201 : 200;
}
