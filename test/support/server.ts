// A real listening server on 127.0.0.1 (random port) over a fresh test store, plus seed helpers.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import type { DialectName, Store } from '../../src/db/store.js';
import { buildApp } from '../../src/http/app.js';
import { startServer } from '../../src/http/server.js';
import { createAccessToken, createOrganisation, createSession, createUser } from '../../src/auth/queries.js';
import type { UserRole } from '../../src/auth/roles.js';
import { insertRecording, type NewRecording, type Recording } from '../../src/recordings/queries.js';
import { createTestStore, type TestStore } from './store.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  store: Store;
  testStore: TestStore;
  config: Config;
  close(): Promise<void>;
}

export async function startTestServer(dialect: DialectName, env: Record<string, string> = {}): Promise<TestServer> {
  const testStore = await createTestStore(dialect);
  const config = loadConfig({ data: testStore.location.dataDir }, { ...env });
  const app = await buildApp({ config, store: testStore.store, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    store: testStore.store,
    testStore,
    config,
    async close() {
      await app.close();
      await testStore.destroy();
    },
  };
}

/**
 * What `sightline serve` starts, in this process: a server with a store of its own on `location` (not the test's
 * handle), as a second process would have. For tests of several parties on one store that need no signals.
 */
export async function serveLocation(
  location: { databaseUrl?: string; dataDir: string },
  env: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const flags = { data: location.dataDir, port: '0', host: '127.0.0.1', 'database-url': location.databaseUrl };
  const server = await startServer(loadConfig(flags, { LOG_LEVEL: 'warn', ...env }), false);
  return { url: server.url, close: () => server.close() };
}

export interface SeededOrg {
  orgId: string;
  name: string;
  /** An application access token (write). */
  token: string;
  /** Session tokens per user role. */
  sessions: Record<UserRole, string>;
  recording: Recording;
}

let counter = 0;

/** An organisation with one user per role, an access token and one recording. */
export async function seedOrg(store: Store, recording: Partial<NewRecording> = {}): Promise<SeededOrg> {
  const n = `${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  const org = await createOrganisation(store.db, `org-${n}`);
  const sessions = {} as Record<UserRole, string>;
  for (const role of ['owner', 'admin', 'editor', 'viewer'] as const) {
    const user = await createUser(store.db, org.id, `${role}-${n}`, 'correct horse battery', role);
    sessions[role] = (await createSession(store.db, user.id, org.id, 3600)).token;
  }
  const token = (await createAccessToken(store.db, org.id, 'producer', null)).token;
  const rec = await insertRecording(store.db, org.id, {
    mediaKey: `cam-${n}/1700000000_6-967003_cam1_24_769.mp4`,
    startTimestamp: 1_700_000_000,
    width: 1000,
    height: 500,
    fps: 25,
    frameCount: 1000,
    ...recording,
  });
  return { orgId: org.id, name: org.name, token, sessions, recording: rec };
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function getJson(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(url, { method, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
