// Text sorts by code point on both dialects, whatever the PostgreSQL database's collation: lists must not change
// order with the database a deployment happened to create (en_US puts `_1` before `A` and folds case).
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import fc from 'fast-check';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { compareCodePoints } from '../../src/util/code-point-order.js';
import { insertRecording } from '../../src/recordings/queries.js';
import { createTestStore, PG_URL, type TestStore } from '../support/store.js';
import { bearer, getJson, postJson, seedOrg, type SeededOrg } from '../support/server.js';
import { STORAGE_ENV } from '../storage/helpers.js';

describe('compareCodePoints', () => {
  it("orders as the UTF-8 bytes do (the databases' order), surrogate pairs included", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
    expect(compareCodePoints('\uffff', '𝒳')).toBeLessThan(0);
  });
});

const RUN_IDS = ['a', 'A', '_1', 'Z', 'é', 'z', 'a b', 'a-b', 'ab', '𝒳', '\uffff', 'B'];
const byCodePoint = (list: string[]) => [...list].sort(compareCodePoints);

describe.runIf(PG_URL)('ordering on a PostgreSQL database with an ICU en-US collation', () => {
  const database = `sightline_icu_${randomBytes(4).toString('hex')}`;
  let ts: TestStore;
  let url: string;
  let org: SeededOrg;
  let close: () => Promise<void>;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin(
      `create database ${database} template template0 locale_provider icu icu_locale 'en-US' locale 'C.UTF-8'`,
    );
    const icuUrl = new URL(PG_URL!);
    icuUrl.pathname = `/${database}`;
    ts = await createTestStore('pg', { pgUrl: icuUrl.toString() });
    const app = await buildApp({
      config: loadConfig({ data: ts.location.dataDir }, STORAGE_ENV),
      store: ts.store,
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    org = await seedOrg(ts.store);
    close = async () => {
      await app.close();
      await ts.store.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await admin(`drop database if exists ${database}`);
  });

  const run = (mediaKey: string, runId: string) => ({
    mediaKey,
    schemaVersion: '1.0',
    coordinateSpace: 'normalized',
    source: { runId },
    tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
  });

  it('the database really collates en-US (else this test proves nothing)', async () => {
    const { rows } = await sql<{ first: string }>`select min(x) as first from (values ('_1'), ('A')) v(x)`.execute(
      ts.store.db,
    );
    expect(rows[0]!.first).toBe('_1');
  });

  it('lists runs with one createdAt by runId in code point order', async () => {
    for (const runId of RUN_IDS)
      expect((await postJson(`${url}/detections`, run(org.recording.mediaKey, runId), bearer(org.token))).status).toBe(
        201,
      );
    await sql`update runs set created_at = 1700000000000 where recording_id = ${org.recording.id}`.execute(ts.store.db);
    const list = await getJson(
      `${url}/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`,
      bearer(org.token),
    );
    expect(list.body.data.runs.map((r: { runId: string }) => r.runId)).toEqual(byCodePoint(RUN_IDS));
  });

  it("names an ambiguous runId's recordings in code point order", async () => {
    const keys = ['b/1700000000_x.mp4', 'B/1700000000_x.mp4', '_/1700000000_x.mp4', 'a/1700000000_x.mp4'];
    for (const mediaKey of keys) {
      await insertRecording(ts.store.db, org.orgId, { mediaKey, startTimestamp: 1_700_000_000 });
      expect((await postJson(`${url}/detections`, run(mediaKey, 'shared-run'), bearer(org.token))).status).toBe(201);
    }
    await sql`update runs set created_at = 1700000000000 where run_id = 'shared-run'`.execute(ts.store.db);
    const res = await getJson(`${url}/detections/shared-run`, bearer(org.token));
    expect(res.status).toBe(409);
    expect(res.body.mediaKeys).toEqual(byCodePoint(keys));
  });

  it('lists storage providers and accounts by name in code point order', async () => {
    const names = ['disk', 'Disk', 'x_1', 'x1', 'a-b', 'ab', 'aB'];
    const owner = bearer(org.sessions.owner);
    for (const name of names) {
      const made = await postJson(
        `${url}/api/storage/admin/providers`,
        {
          name,
          type: 's3',
          config: { bucket: 'media-bucket', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'very-secret-value' },
        },
        owner,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const account = await postJson(
        `${url}/api/storage/admin/accounts`,
        { name: `acct-${name}`, defaultProvider: name, providers: [name] },
        owner,
      );
      expect(account.status, JSON.stringify(account.body)).toBe(201);
    }
    const providers = await getJson(`${url}/api/storage/admin/providers`, owner);
    expect(providers.body.data.map((p: { name: string }) => p.name)).toEqual(byCodePoint(names));
    const accounts = await getJson(`${url}/api/storage/admin/accounts`, owner);
    expect(accounts.body.data.map((a: { name: string }) => a.name)).toEqual(byCodePoint(names.map((n) => `acct-${n}`)));
  });
});
