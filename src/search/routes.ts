// POST /recordings/search: recordings with a detection centroid inside a region, newest first.
import type { FastifyInstance } from 'fastify';
import { principalOf, requireReader } from '../auth/authenticate.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { sendJson } from '../http/send-json.js';
import { skipSchemaValidation } from '../http/skip-validation.js';
import { requireJson } from '../recordings/route-helpers.js';
import { SearchBody, SearchResult } from './api-schemas.js';
import { searchRecordings } from './queries.js';
import { validateSearchBody } from './request.js';

const secured = [{ bearer: [] }];

// 1000 polygon points of two 17-digit numbers each and 100 labels fit, with room for long ones.
const SEARCH_BODY_LIMIT = 256 * 1024;
const tags = ['recordings'];

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const db = app.store.db;

  app.post(
    '/recordings/search',
    {
      bodyLimit: SEARCH_BODY_LIMIT,
      onRequest: requireReader,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags,
        security: secured,
        summary: 'Recordings with a detection centroid inside a region, newest first',
        body: SearchBody,
        description:
          'region: `{ points: [{x,y}…], width, height }` (canvas pixels; without width/height the points are normalized) or `{ x, y, w, h }` (normalized). ' +
          'Optional labels, from/to (start time, Unix seconds or ISO-8601), limit (1–500, default 50), cursor.',
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('One page of matching recordings; a region outside the frame finds none', SearchResult),
        },
      },
    },
    async (request, reply) => {
      requireJson(request);
      const search = validateSearchBody(request.body);
      const page = await searchRecordings(db, principalOf(request).orgId, search);
      return sendJson(reply, 200, { data: page });
    },
  );
}
