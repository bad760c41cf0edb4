// One run by its runId, with the 400/404/409 rules of GET and DELETE /detections/{runId} (and its export).
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authenticate.js';
import { ApiError } from '../http/problem.js';
import { findRunsByRunId, type SummaryRow } from './queries.js';
import { readRunSnapshot, type RunBody } from './run-body-reader.js';

export async function findOneRun(
  request: FastifyRequest,
  runId: string,
  mediaKey: string | undefined,
): Promise<SummaryRow> {
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

/** The run's summary and body of one version (see readRunSnapshot); 404 when it is gone meanwhile. */
export async function readOneRun(
  request: FastifyRequest,
  runId: string,
  mediaKey: string | undefined,
): Promise<{ row: SummaryRow; body: RunBody }> {
  return readFoundRun(request, await findOneRun(request, runId, mediaKey));
}

/** readOneRun of a run findOneRun has found. */
export async function readFoundRun(
  request: FastifyRequest,
  found: SummaryRow,
): Promise<{ row: SummaryRow; body: RunBody }> {
  const run = await readRunSnapshot(request.server.store, principalOf(request).orgId, found.id);
  if (!run) throw new ApiError(404, 'run_not_found', `No run "${found.run_id}"`);
  return run;
}
