// The admin tests' server: a test server whose log lines (at debug, the most talkative level) are kept, so that a
// test can show that no secret reaches the log; an organisation seeded on it as seedOrg makes them.
import { Writable } from 'node:stream';
import { test as base } from 'vitest';
import type { AuditEntry } from '../../src/admin/audit.js';
import { loadConfig } from '../../src/config.js';
import type { DialectName } from '../../src/db/store.js';
import { buildApp } from '../../src/http/app.js';
import { type SeededOrg, type TestServer, bearer, seedOrg } from '../support/server.js';
import { createTestStore } from '../support/store.js';
import { STORAGE_ENV } from '../storage/helpers.js';

export type LoggedServer = TestServer & { logs: () => string };

export async function startLoggedServer(dialect: DialectName, env: Record<string, string> = {}): Promise<LoggedServer> {
  const testStore = await createTestStore(dialect);
  const config = loadConfig({ data: testStore.location.dataDir }, { LOG_LEVEL: 'debug', ...STORAGE_ENV, ...env });
  const chunks: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, store: testStore.store, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    store: testStore.store,
    testStore,
    config,
    logs: () => chunks.join(''),
    async close() {
      await app.close();
      await testStore.destroy();
    },
  };
}

/** Per dialect: `server` (file-scoped, logging) and `org`/`other`, fresh organisations for each test. */
export function adminTests(env: Record<string, string> = {}) {
  const make = (dialect: DialectName) =>
    base
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from a destructuring pattern.
      .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<LoggedServer> => {
        const server = await startLoggedServer(dialect, env);
        onCleanup(() => server.close());
        return server;
      })
      .extend('org', ({ server }): Promise<SeededOrg> => seedOrg(server.store))
      .extend('other', ({ server }): Promise<SeededOrg> => seedOrg(server.store));
  return { sqlite: make('sqlite'), pg: make('pg') };
}

/** A JSON request with a Bearer token: status, headers and parsed body. */
export async function call(server: { url: string }, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = token ? bearer(token) : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function login(server: { url: string }, username: string, password: string) {
  return call(server, 'POST', '/login', undefined, { username, password });
}

/** The audit entries of the organisation, newest first (every page). */
export async function auditOf(server: { url: string }, token: string) {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(server, 'GET', `/admin/audit?limit=200${cursor ? `&cursor=${cursor}` : ''}`, token);
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    entries.push(...(page.body.data.entries as AuditEntry[]));
    cursor = page.body.data.nextCursor as string | null;
  } while (cursor);
  return entries;
}
