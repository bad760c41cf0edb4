// GET /recordings/{id or mediaKey}: one recording with its runs' summaries. The detections domain answers it, since the
// runs are its own; the recording comes from the registry.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf, requireReader } from '../auth/authenticate.js';
import { ApiError } from '../http/problem.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { sendJson } from '../http/send-json.js';
import { recordingFields } from '../recordings/api-schemas.js';
import { findRecording, recordingForApi } from '../recordings/queries.js';
import { recordingRef } from '../recordings/route-helpers.js';
import { RunSummary } from './api-schemas.js';
import { listRunSummaries, summaryForApi } from './queries.js';

const secured = [{ bearer: [] }];
const tags = ['recordings'];

const RecordingWithRuns = Type.Object({
  data: Type.Object({
    ...recordingFields,
    runs: Type.Array(RunSummary, { description: 'Run summaries, oldest first, as GET /detections' }),
  }),
});

export async function recordingWithRunsRoute(app: FastifyInstance): Promise<void> {
  const db = app.store.db;

  app.get(
    '/recordings/*',
    {
      onRequest: requireReader,
      schema: {
        tags,
        security: secured,
        summary: 'One recording with its runs (by id or mediaKey, %2F-encoded or as path segments)',
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The recording with its run summaries', RecordingWithRuns) },
      },
    },
    async (request, reply) => {
      const orgId = principalOf(request).orgId;
      const ref = recordingRef(request);
      const recording = await findRecording(db, orgId, ref);
      if (!recording) throw new ApiError(404, 'recording_not_found', `No recording "${ref}"`);
      const runs = await listRunSummaries(db, orgId, recording.id);
      return sendJson(reply, 200, { data: { ...recordingForApi(recording), runs: runs.map(summaryForApi) } });
    },
  );
}
