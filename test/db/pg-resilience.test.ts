// PostgreSQL going away under load: a terminated backend or a silent network must cost the requests in flight a
// 503, never the process, and the service must heal on its own once the database is back.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/db/store.js';
import { buildApp } from '../../src/http/app.js';
import { exited, spawnServer } from '../support/cli.js';
import { PG_URL, createTestStore, type TestStore } from '../support/store.js';
import { seedOrg } from '../support/server.js';

const withPg = PG_URL ? describe : describe.skip;

/** Polls `check` until it holds, for at most `ms`: the condition is awaited, never a fixed sleep. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A TCP proxy to PostgreSQL that can go silent: it keeps every socket open and stops passing bytes either way. */
async function freezableProxy(target: URL) {
  let frozen = false;
  // A statement text that silences, from then on, the connection that sends it (and only that one).
  let freezeOn: Buffer | undefined;
  const pairs: Array<[net.Socket, net.Socket]> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    pairs.push([client, upstream]);
    let silenced = false;
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.on('data', (c: Buffer) => {
      if (freezeOn && c.includes(freezeOn)) silenced = true;
      if (!frozen && !silenced) upstream.write(c);
    });
    upstream.on('data', (c) => {
      if (!frozen && !silenced) client.write(c);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    /** Connections that send `text` from now on go silent; undefined stops it (silenced ones stay silent). */
    silenceOn(text: string | undefined) {
      freezeOn = text === undefined ? undefined : Buffer.from(text);
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise((r) => server.close(r));
    },
  };
}

withPg('PostgreSQL: a terminated backend', () => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await createTestStore('pg');
  });
  afterAll(async () => {
    await testStore.destroy();
  });

  it('costs the requests in flight a 503, not the process, and the server heals', async () => {
    const appName = `sl_resilience_${randomBytes(4).toString('hex')}`;
    const url = `${testStore.location.databaseUrl}&application_name=${appName}`;
    const server = await spawnServer({ ...testStore.location, databaseUrl: url });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const statuses = new Set<number>();
    let stop = false;
    // Eight clients keep every pooled connection busy, so that the terminations hit checked-out connections.
    const load = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const res = await fetch(`${server.url}/api/health`);
        statuses.add(res.status);
        if (res.status !== 200) expect(res.headers.get('content-type')).toContain('application/problem+json');
        await res.arrayBuffer();
      }
    });
    try {
      for (let round = 0; round < 5; round++) {
        // Wait until the server holds connections, then end them all.
        expect(
          await eventually(
            async () =>
              (
                await admin.query('select count(*)::int as n from pg_stat_activity where application_name = $1', [
                  appName,
                ])
              ).rows[0].n > 0,
            10_000,
          ),
        ).toBe(true);
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
          appName,
        ]);
        expect(await eventually(async () => (await fetch(`${server.url}/api/health`)).status === 200, 10_000)).toBe(
          true,
        );
      }
      stop = true;
      await Promise.all(load);
      expect(server.child.exitCode).toBeNull();
      expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true);
    } finally {
      stop = true;
      await admin.end();
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });
});

withPg('PostgreSQL: a database that goes silent', () => {
  let testStore: TestStore;
  let store: Store;
  let proxy: Awaited<ReturnType<typeof freezableProxy>>;
  beforeAll(async () => {
    testStore = await createTestStore('pg');
    proxy = await freezableProxy(new URL(PG_URL!));
    const through = new URL(PG_URL!);
    through.port = String(proxy.port);
    through.hostname = '127.0.0.1';
    store = openStore({
      databaseUrl: through.toString(),
      pgSchema: testStore.location.pgSchema,
      connectTimeoutMs: 500,
      queryTimeoutMs: 1000,
    });
  });
  afterAll(async () => {
    await store.close().catch(() => {});
    await proxy.close();
    await testStore.destroy();
  });

  it('answers 503 (health and data routes) instead of waiting for ever, and heals once it answers again', async () => {
    const org = await seedOrg(store);
    const app = await buildApp({ config: loadConfig({ data: testStore.location.dataDir }, {}), store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const list = () =>
      fetch(`${base}/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`, {
        headers: { authorization: `Bearer ${org.token}` },
      });
    try {
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect((await list()).status).toBe(200);
      proxy.freeze();
      const started = Date.now();
      const [health, data] = await Promise.all([fetch(`${base}/api/health`), list()]);
      expect(health.status).toBe(503);
      expect(data.status).toBe(503);
      expect(data.headers.get('retry-after')).toBe('2');
      expect((await data.json()).code).toBe('service_unavailable');
      // The query deadline (1 s) plus a connection attempt (0.5 s), with room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(8000);
      proxy.thaw();
      // The frozen connections were dropped: new ones answer.
      expect(await eventually(async () => (await list()).status === 200, 10_000)).toBe(true);
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
    } finally {
      proxy.thaw();
      await app.close();
    }
  });

  it('answers GET /detections/{runId} 503 within the deadline when the run-body read (COPY) goes unanswered, and the pool recovers', async () => {
    const org = await seedOrg(store);
    const app = await buildApp({ config: loadConfig({ data: testStore.location.dataDir }, {}), store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const auth = { authorization: `Bearer ${org.token}` };
    const read = () => fetch(`${base}/detections/silent-copy`, { headers: auth });
    try {
      const posted = await fetch(`${base}/detections`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          mediaKey: org.recording.mediaKey,
          schemaVersion: '1.0',
          source: { kind: 'model', name: 'yolo', runId: 'silent-copy' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 'a', label: 'car', boxes: [{ frame: 0, x: 0.1, y: 0.2, w: 0.3, h: 0.4 }] }],
        }),
      });
      expect(posted.status).toBe(201);
      expect((await read()).status).toBe(200);
      // Only the body's COPY goes unanswered: every other statement is answered as usual.
      proxy.silenceOn('COPY (');
      const started = Date.now();
      // More requests than the pool has connections: each one's silent connection must be given up, not kept.
      const answers = await Promise.all(Array.from({ length: 12 }, read));
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect((await answer.json()).code).toBe('service_unavailable');
      }
      // Each request waits the 1 s deadline once; two rounds of ten connections, with room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(8000);
      proxy.silenceOn(undefined);
      const again = await read();
      expect(again.status).toBe(200);
      expect((await again.json()).data.tracks).toHaveLength(1);
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
    } finally {
      proxy.silenceOn(undefined);
      await app.close();
    }
  });
});
