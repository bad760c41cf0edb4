// What operators rely on: the health routes (live, ready, and ready while draining), the metrics listener (its own
// port, the names a scrape finds), nosniff on every answer, the CSP of /docs, and an owner-only SQLite store.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { serverTests } from '../support/fixtures.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { rawExchange } from '../support/raw-http.js';
import { createTestStore, DIALECTS, type TestStore } from '../support/store.js';

const tests = serverTests({ env: { METRICS_PORT: '0' } });

/** A keep-alive connection that asks one GET at a time and reads each whole answer (Content-Length bodies). */
async function keepAlive(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let buffer = '';
  let waiting: (() => void) | undefined;
  socket.on('data', (c: Buffer) => {
    buffer += c.toString('latin1');
    waiting?.();
  });
  return {
    async get(target: string): Promise<{ status: number; head: string; body: string }> {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end >= 0) {
          const head = buffer.slice(0, end);
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length >= end + 4 + length) {
            const body = buffer.slice(end + 4, end + 4 + length);
            buffer = buffer.slice(end + 4 + length);
            return { status: Number(head.split(' ')[1]), head, body };
          }
        }
        await new Promise<void>((resolve) => {
          waiting = resolve;
        });
      }
    },
    close: () => socket.destroy(),
  };
}

describe.each(DIALECTS)('operations on %s', (dialect) => {
  const it = tests[dialect];

  it('live and ready answer 200; /api/health is unchanged', async ({ server }) => {
    const live = await getJson(`${server.url}/api/health/live`);
    expect([live.status, live.body]).toEqual([200, { data: { status: 'ok' } }]);
    const ready = await getJson(`${server.url}/api/health/ready`);
    expect([ready.status, ready.body]).toEqual([200, { data: { status: 'ready', database: dialect } }]);
    const health = await getJson(`${server.url}/api/health`);
    expect([health.status, health.body]).toEqual([200, { data: { status: 'ok', database: dialect } }]);
  });

  it('X-Content-Type-Options: nosniff on every answer, errors and refusals before routing included', async ({
    server,
    org,
  }) => {
    const answers = [
      await fetch(`${server.url}/api/health`),
      await fetch(`${server.url}/no/such/route`),
      await fetch(`${server.url}/docs/json`),
      await fetch(`${server.url}/detections?mediaKey=x`, { headers: bearer(org.token) }),
      await fetch(`${server.url}/detections?mediaKey=x`),
      await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
      await fetch(`${server.url}/api/health`, { headers: { accept: 'application/json; version=99' } }),
    ];
    for (const res of answers)
      expect([res.url, res.headers.get('x-content-type-options')]).toEqual([res.url, 'nosniff']);
    // A request Node's parser refuses never reaches Fastify; its answer carries the header too.
    const raw = await rawExchange(server.url, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('/docs has a Content-Security-Policy that allows only its own scripts and this server', async ({ server }) => {
    const page = await fetch(`${server.url}/docs/static/index.html`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // The API's own answers carry none (they are not pages).
    expect((await fetch(`${server.url}/api/health`)).headers.get('content-security-policy')).toBeNull();
  });

  it('the metrics listener is on its own port, with the named series; the public port has no /metrics', async ({
    server,
    org,
  }) => {
    expect(server.app.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.app.metricsUrl).not.toBe(server.url);
    await getJson(`${server.url}/api/health`);
    await getJson(`${server.url}/detections/some-run-id`, bearer(org.token));
    await postJson(`${server.url}/login`, { username: 'nobody-metrics', password: 'wrong' });
    const scrape = await fetch(`${server.app.metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    expect(text).toMatch(/^sightline_http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+$/m);
    // The route's pattern, not the path: no series per run id.
    expect(text).toMatch(/sightline_http_requests_total\{method="GET",route="\/detections\/:runId",status="404"\}/);
    expect(text).not.toContain('some-run-id');
    expect(text).toMatch(/^sightline_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/health"\} \d+$/m);
    for (const name of [
      'sightline_body_bytes_in_flight',
      'sightline_large_body_turns_in_use',
      'sightline_db_pool_in_use',
      'sightline_db_pool_waiting',
      'sightline_sweeper_runs_total',
      'sightline_sweeper_removals_total',
      'sightline_login_failures_total',
      'sightline_login_throttled_total',
      'process_resident_memory_bytes',
    ])
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    expect(text).toMatch(/^sightline_login_failures_total [1-9]\d*$/m);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.app.metricsUrl}/other`)).status).toBe(404);
  });

  it.skipIf(dialect !== 'pg')('counts the PostgreSQL pool in the pool gauges', async ({ server }) => {
    const held = server.store.pgPool!.connect();
    const client = await held;
    try {
      const text = await (await fetch(`${server.app.metricsUrl}/metrics`)).text();
      expect(Number(/^sightline_db_pool_in_use (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    } finally {
      client.release();
    }
  });
});

describe.each(DIALECTS)('readiness on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  async function listening() {
    const app = await buildApp({
      config: loadConfig({ data: ts.location.dataDir }, {}),
      store: ts.store,
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, port: (app.server.address() as { port: number }).port };
  }

  it('while draining: ready is 503 (draining), live still 200, other routes 503', async () => {
    const { app, port } = await listening();
    const [ready, live, other] = await Promise.all([keepAlive(port), keepAlive(port), keepAlive(port)]);
    try {
      expect((await ready.get('/api/health/ready')).status).toBe(200);
      expect((await live.get('/api/health/live')).status).toBe(200);
      expect((await other.get('/api/health')).status).toBe(200);
      const closed = app.close();
      // Closing begins at once (the listener stops, the draining flag is up); the connections stay while idle.
      await new Promise((resolve) => setImmediate(resolve));
      const notReady = await ready.get('/api/health/ready');
      expect(notReady.status).toBe(503);
      expect(JSON.parse(notReady.body)).toMatchObject({ code: 'service_unavailable', reason: 'draining' });
      expect((await live.get('/api/health/live')).status).toBe(200);
      expect((await other.get('/api/health')).status).toBe(503);
      await closed;
    } finally {
      for (const conn of [ready, live, other]) conn.close();
    }
  });

  it('503 migrations_pending on a store that lacks a migration, until it is migrated', async () => {
    const last = (
      await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(ts.store.db)
    ).rows[0]!.name;
    await sql`delete from kysely_migration where name = ${last}`.execute(ts.store.db);
    const { app, port } = await listening();
    try {
      const res = await getJson(`http://127.0.0.1:${port}/api/health/ready`);
      expect([res.status, res.body.reason, res.headers.get('retry-after')]).toEqual([503, 'migrations_pending', '1']);
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${new Date().toISOString()})`.execute(
        ts.store.db,
      );
      expect((await getJson(`http://127.0.0.1:${port}/api/health/ready`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the SQLite store file', () => {
  it('is created owner-only (0600), and so are its -wal and -shm files', async () => {
    const ts = await createTestStore('sqlite');
    try {
      await sql`create table mode_probe (x integer)`.execute(ts.store.db);
      await sql`insert into mode_probe values (1)`.execute(ts.store.db);
      for (const name of ['sightline.db', 'sightline.db-wal', 'sightline.db-shm']) {
        const mode = fs.statSync(path.join(ts.location.dataDir, name)).mode & 0o777;
        expect([name, mode.toString(8)]).toEqual([name, '600']);
      }
    } finally {
      await ts.destroy();
    }
  });
});
