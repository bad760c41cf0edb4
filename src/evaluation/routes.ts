// POST, GET and DELETE /evaluations: the HTTP surface of the evaluation domain.
import type { FastifyInstance } from 'fastify';
import { principalOf, requireReader, requireWriter } from '../auth/authenticate.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { ApiError } from '../http/problem.js';
import { sendJson } from '../http/send-json.js';
import { decodeCursor, encodeCursor } from '../recordings/cursor.js';
import { parseLimit } from '../recordings/page-params.js';
import { newId } from '../util/ids.js';
import {
  EvaluationBody,
  EvaluationDeleted,
  EvaluationGetQuery,
  EvaluationIdParams,
  EvaluationListQuery,
  EvaluationPage,
  EvaluationResult,
} from './api-schemas.js';
import { evaluationForApi, isStale, runsOf } from './answer.js';
import { plannedRuns } from './plan.js';
import {
  currentRuns,
  deleteEvaluation,
  type EvaluationRow,
  findEvaluation,
  insertEvaluation,
  listEvaluations,
} from './queries.js';
import { parseEvaluationRequest } from './request-body.js';
import { resolvePlan } from './resolve.js';

const secured = [{ bearer: [] }];
const tags = ['evaluation'];

const notFound = (id: string) => new ApiError(404, 'evaluation_not_found', `No evaluation "${id}"`);

export async function evaluationRoutes(app: FastifyInstance): Promise<void> {
  const db = app.store.db;
  const { syncMs, leaseMs } = app.config.evaluation;

  /** The rows as answered, `stale` read for all of them in one pass over their runs. */
  async function forApi(orgId: string, rows: EvaluationRow[]) {
    const used = rows.map(runsOf);
    const current = await currentRuns(db, orgId, [...new Set(used.flat().map((u) => u.pk))]);
    return rows.map((row, i) => evaluationForApi(row, isStale(used[i]!, current)));
  }

  app.post(
    '/evaluations',
    {
      onRequest: requireReader,
      schema: {
        tags,
        summary: 'Score prediction runs against a ground-truth run, on one recording or many',
        security: secured,
        description:
          'Runs by runId on one recording (mediaKey or analysisId; a groundTruth runId alone names its recording), or by ' +
          'producer ({sourceName, sourceVersion?}: per recording the newest run by updatedAt) across `recordings`. ' +
          'Statuses: 201 done within EVALUATION_SYNC_MS; 202 still running (Location: /evaluations/{id}; poll it); ' +
          '400 invalid_body / invalid_field (unknown metric, iouThreshold outside (0, 1], no prediction, more than 20); ' +
          '404 recording_not_found / run_not_found; 409 ambiguous_run_id (a groundTruth runId on several recordings: add mediaKey).',
        [DOCUMENTED_REQUEST]: { body: EvaluationBody },
        [DOCUMENTED_RESPONSES]: {
          201: jsonResponse('The evaluation, complete (or failed)', EvaluationResult),
          202: jsonResponse('The evaluation, still running in the background', EvaluationResult),
        },
      },
    },
    async (request, reply) => {
      const evaluation = parseEvaluationRequest(request.body);
      const orgId = principalOf(request).orgId;
      const plan = await resolvePlan(db, orgId, evaluation);
      const now = Date.now();
      const id = newId(now);
      // Stored with this instance's lease before any work: should the instance die, another one resumes it.
      await insertEvaluation(
        db,
        {
          id,
          org_id: orgId,
          status: 'running',
          plan: JSON.stringify(plan),
          used_runs: JSON.stringify(plannedRuns(plan)),
          results: null,
          frames: null,
          error: null,
          created_at: now,
          completed_at: null,
          lease_owner: app.evaluationJobs.owner,
          lease_expires_at: now + leaseMs,
          attempts: 1,
        },
        plan.sequences.map((s) => s.mediaKey),
      );
      const done = app.evaluationJobs.run(id, orgId, plan);
      if (syncMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, syncMs)))]);
        clearTimeout(timer);
      }
      const row = await findEvaluation(db, orgId, id, false);
      if (!row) throw notFound(id);
      const [data] = await forApi(orgId, [row]);
      reply.header('Location', `/evaluations/${id}`);
      return sendJson(reply, row.status === 'running' ? 202 : 201, { data });
    },
  );

  app.get(
    '/evaluations',
    {
      onRequest: requireReader,
      schema: {
        tags,
        summary: "List the organisation's evaluations, newest first",
        security: secured,
        description:
          'Filter: mediaKey (evaluations covering that recording). Cursor pagination: limit (1–500), cursor.',
        [DOCUMENTED_REQUEST]: { querystring: EvaluationListQuery },
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('One page of evaluations (without per-frame counts)', EvaluationPage),
        },
      },
    },
    async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const limit = parseLimit(q.limit, 'query');
      if (q.mediaKey !== undefined && (typeof q.mediaKey !== 'string' || q.mediaKey === ''))
        throw new ApiError(400, 'invalid_field', 'Give mediaKey once, not empty', { field: 'mediaKey' });
      const orgId = principalOf(request).orgId;
      const rows = await listEvaluations(db, orgId, {
        mediaKey: q.mediaKey as string | undefined,
        after: decodeCursor(q.cursor),
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor = rows.length > limit && last ? encodeCursor({ start: last.created_at, id: last.id }) : null;
      return sendJson(reply, 200, { data: { evaluations: await forApi(orgId, page), nextCursor } });
    },
  );

  app.get(
    '/evaluations/:id',
    {
      onRequest: requireReader,
      schema: {
        tags,
        summary: 'Fetch one evaluation (poll a running one)',
        security: secured,
        params: EvaluationIdParams,
        [DOCUMENTED_REQUEST]: { querystring: EvaluationGetQuery },
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The evaluation', EvaluationResult) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { include } = request.query as { include?: unknown };
      const parts =
        typeof include === 'string'
          ? include
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean)
          : [];
      const unknown =
        include !== undefined && typeof include !== 'string' ? String(include) : parts.find((p) => p !== 'frames');
      if (unknown !== undefined)
        throw new ApiError(400, 'invalid_field', `include takes "frames" only, got "${unknown}"`, { field: 'include' });
      const orgId = principalOf(request).orgId;
      const row = await findEvaluation(db, orgId, id, parts.length > 0);
      if (!row) throw notFound(id);
      const [data] = await forApi(orgId, [row]);
      return sendJson(reply, 200, { data });
    },
  );

  app.delete(
    '/evaluations/:id',
    {
      onRequest: requireWriter,
      schema: {
        tags,
        summary: 'Delete one evaluation (a running one stops)',
        security: secured,
        params: EvaluationIdParams,
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The evaluation is deleted', EvaluationDeleted) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!(await deleteEvaluation(db, principalOf(request).orgId, id))) throw notFound(id);
      return sendJson(reply, 200, { data: { id, deleted: true } });
    },
  );
}
