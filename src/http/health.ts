// The health routes: /api/health (the database answers; load balancers have used it from the start),
// /api/health/live (the process answers) and /api/health/ready (it should be sent requests: the store answers, every
// migration this version knows is applied, and it is not draining).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { migrationStatus } from '../db/migrate.js';
import { withinMs } from '../util/within.js';
import type { Draining } from './draining.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from './openapi-docs.js';
import { ApiError } from './problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered by the route itself while the server drains (every other route answers 503 then). */
    answersWhileDraining?: boolean;
  }
}

const HEALTH_DEADLINE_MS = 3000;
const tags = ['health'];
const Dialect = Type.Union([Type.Literal('sqlite'), Type.Literal('pg')], { description: 'The dialect in use' });

export async function healthRoutes(app: FastifyInstance, { draining }: { draining: Draining }): Promise<void> {
  const store = app.store;
  /** A probe needs an answer, not a wait: a database that does not answer soon is unreachable. */
  const databaseAnswers = () => withinMs(sql`select 1`.execute(store.db), HEALTH_DEADLINE_MS);
  // Migrations are never taken back: once all are applied, they stay so for this process.
  let migrated = false;

  app.get(
    '/api/health',
    {
      schema: {
        tags,
        summary: 'Answers 200 when the database is reachable',
        security: [],
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse(
            'The database answered',
            Type.Object({ data: Type.Object({ status: Type.Literal('ok'), database: Dialect }) }),
          ),
        },
      },
    },
    async (_request, reply) => {
      try {
        await databaseAnswers();
        return { data: { status: 'ok', database: store.dialect } };
      } catch {
        reply.code(503);
        throw new ApiError(503, 'service_unavailable', 'The database is not reachable');
      }
    },
  );

  app.get(
    '/api/health/live',
    {
      config: { answersWhileDraining: true },
      schema: {
        tags,
        summary: 'Answers 200 while the process answers at all (a liveness probe); never asks the database',
        security: [],
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse(
            'The process is running',
            Type.Object({ data: Type.Object({ status: Type.Literal('ok') }) }),
          ),
        },
      },
    },
    (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reply.send({ data: { status: 'ok' } });
    },
  );

  app.get(
    '/api/health/ready',
    {
      config: { answersWhileDraining: true },
      schema: {
        tags,
        summary:
          'Answers 200 when this instance should be sent requests: the database answers, its schema is migrated, and it is not shutting down; 503 otherwise',
        security: [],
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse(
            'Ready',
            Type.Object({ data: Type.Object({ status: Type.Literal('ready'), database: Dialect }) }),
          ),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const notReady = (reason: string, detail: string) =>
        new ApiError(503, 'service_unavailable', detail, { reason }, { 'Retry-After': '1' });
      if (draining.closing) throw notReady('draining', 'The server is shutting down');
      try {
        await databaseAnswers();
      } catch {
        throw notReady('database_unreachable', 'The database is not reachable');
      }
      if (!migrated) {
        let pending: string[];
        try {
          pending = (await withinMs(migrationStatus(store), HEALTH_DEADLINE_MS)).pending;
        } catch {
          // A store migrated by a newer version (or one that stopped answering): this version must not serve it.
          throw notReady('schema_mismatch', 'The store is not at the schema this version serves');
        }
        if (pending.length > 0) {
          throw notReady('migrations_pending', `The store lacks ${pending.length} migration(s): run sightline migrate`);
        }
        migrated = true;
      }
      return { data: { status: 'ready', database: store.dialect } };
    },
  );
}
