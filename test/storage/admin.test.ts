import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createProvider, enableProvider } from '../../src/storage/admin.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { bearer, getJson, postJson, seedOrg } from '../support/server.js';
import { SIGNING_KEY, STORAGE_ENV } from './helpers.js';

async function patchJson(url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const tests = serverTests({ env: STORAGE_ENV });

describe.each(DIALECTS)('storage admin HTTP API on %s', (dialect) => {
  // An admin session's headers.
  const it = tests[dialect].extend('admin', ({ org }) => bearer(org.sessions.admin));

  it('creates providers, returns no credential, and keeps them encrypted at rest', async ({ server, org, admin }) => {
    const s3 = await postJson(
      `${server.url}/api/storage/admin/providers`,
      {
        name: 'aws',
        type: 's3',
        config: {
          bucket: 'media-bucket',
          region: 'eu-west-1',
          accessKeyId: 'AKIAEXAMPLE',
          secretAccessKey: 'very-secret-value',
        },
      },
      admin,
    );
    expect(s3.status).toBe(201);
    expect(s3.body.data).toMatchObject({
      name: 'aws',
      type: 's3',
      enabled: true,
      hasCredentials: true,
      config: { bucket: 'media-bucket', region: 'eu-west-1' },
    });
    expect(JSON.stringify(s3.body)).not.toMatch(/very-secret-value|AKIAEXAMPLE/);
    const row = await server.store.db
      .selectFrom('storage_providers')
      .selectAll()
      .where('org_id', '=', org.orgId)
      .where('name', '=', 'aws')
      .executeTakeFirstOrThrow();
    expect(`${row.settings}${row.secret}`).not.toMatch(/very-secret-value|AKIAEXAMPLE/);
    const fsp = await postJson(
      `${server.url}/api/storage/admin/providers`,
      { name: 'disk', type: 'fs', config: {} },
      admin,
    );
    expect(fsp.status).toBe(201);
    const list = await getJson(`${server.url}/api/storage/admin/providers`, admin);
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['aws', 'disk']);
    expect(JSON.stringify(list.body)).not.toMatch(/very-secret-value|AKIAEXAMPLE/);
  });

  it('rejects bad providers with 400 invalid_provider and duplicates with 409', async ({ server, admin }) => {
    const cases = [
      { name: 'x', type: 'ftp' },
      { name: '', type: 'fs' },
      { name: 'y', type: 's3', config: { bucket: 'b-1' } },
      { name: 'z', type: 'fs', config: { other: 1 } },
      { name: 'w', type: 'azure', config: { account: 'a', container: 'c', accountKey: 'x', extra: 1 } },
      // Names and endpoints that would bend the signed URL: an endpoint from a connection string is checked too.
      {
        name: 'v1',
        type: 'azure',
        config: {
          connectionString: `AccountName=acct;AccountKey=${'A'.repeat(40)};BlobEndpoint=javascript:alert(1)`,
          container: 'videos',
        },
      },
      { name: 'v2', type: 'azure', config: { account: 'acct', accountKey: 'A'.repeat(40), container: '../x' } },
      { name: 'v3', type: 'azure', config: { account: 'Acct?', accountKey: 'A'.repeat(40), container: 'videos' } },
    ];
    for (const body of cases) {
      const res = await postJson(`${server.url}/api/storage/admin/providers`, body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_provider');
    }
    const dup = await postJson(`${server.url}/api/storage/admin/providers`, { name: 'disk', type: 'fs' }, admin);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('provider_exists');
  });

  it('lets only the operator choose an fs root: an organisation asking for "/" gets 403 and no provider', async ({
    server,
    admin,
  }) => {
    for (const root of ['/', '..', 'elsewhere']) {
      const res = await postJson(
        `${server.url}/api/storage/admin/providers`,
        { name: 'rootfs', type: 'fs', config: { root } },
        admin,
      );
      expect(res.status, root).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    const list = await getJson(`${server.url}/api/storage/admin/providers`, admin);
    expect(list.body.data.map((p: { name: string }) => p.name)).not.toContain('rootfs');
  });

  it('leaves no provider behind when its folder cannot be made', async ({ server }) => {
    const other = await seedOrg(server.store);
    // A file where the organisation's storage folder goes.
    fs.mkdirSync(`${server.config.dataDir}/storage`, { recursive: true });
    fs.writeFileSync(`${server.config.dataDir}/storage/${other.orgId}`, 'in the way');
    const res = await postJson(
      `${server.url}/api/storage/admin/providers`,
      { name: 'blocked', type: 'fs', config: {} },
      bearer(other.sessions.admin),
    );
    expect(res.status).toBe(500);
    const list = await getJson(`${server.url}/api/storage/admin/providers`, bearer(other.sessions.admin));
    expect(list.body.data).toEqual([]);
    fs.rmSync(`${server.config.dataDir}/storage/${other.orgId}`);
    expect(
      (
        await postJson(
          `${server.url}/api/storage/admin/providers`,
          { name: 'blocked', type: 'fs', config: {} },
          bearer(other.sessions.admin),
        )
      ).status,
    ).toBe(201);
  });

  it("shows an organisation's admins no server path of an fs provider the operator made for them", async ({
    server,
    org,
    admin,
  }) => {
    const root = `${server.config.dataDir}/operator-made-${process.pid}`;
    await createProvider(server.store, server.config, org.orgId, {
      name: 'operator-disk',
      type: 'fs',
      config: { root },
    });
    const list = await getJson(`${server.url}/api/storage/admin/providers`, admin);
    const listed = list.body.data.find((p: { name: string }) => p.name === 'operator-disk');
    expect(listed).toMatchObject({ type: 'fs', config: {} });
    const patched = await patchJson(
      `${server.url}/api/storage/admin/providers/operator-disk`,
      { enabled: true },
      admin,
    );
    expect(patched.status).toBe(200);
    expect(JSON.stringify([list.body, patched.body])).not.toContain(root);
  });

  it('lets only the operator choose an endpoint: an organisation could point it at internal addresses', async ({
    server,
    admin,
  }) => {
    const bodies = [
      {
        name: 'ssrf1',
        type: 's3',
        config: {
          bucket: 'latest',
          region: 'us-east-1',
          endpoint: 'http://169.254.169.254',
          accessKeyId: 'x',
          secretAccessKey: 'y',
        },
      },
      {
        name: 'ssrf2',
        type: 's3',
        config: {
          bucket: 'media',
          region: 'us-east-1',
          endpoint: 'https://minio.example.com',
          accessKeyId: 'x',
          secretAccessKey: 'y',
        },
      },
      {
        name: 'ssrf3',
        type: 'azure',
        config: {
          connectionString: `AccountName=acct;AccountKey=${'A'.repeat(40)};BlobEndpoint=http://127.0.0.1:10000/acct`,
          container: 'videos',
        },
      },
    ];
    for (const body of bodies) {
      const res = await postJson(`${server.url}/api/storage/admin/providers`, body, admin);
      expect([body.name, res.status, res.body.code]).toEqual([body.name, 403, 'forbidden']);
    }
    const list = await getJson(`${server.url}/api/storage/admin/providers`, admin);
    expect(list.body.data.map((p: { name: string }) => p.name).filter((n: string) => n.startsWith('ssrf'))).toEqual([]);
    // A connection string as the Azure portal hands it out names the public cloud: no endpoint of its own.
    const portal = `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${'A'.repeat(40)};EndpointSuffix=core.windows.net`;
    const created = await postJson(
      `${server.url}/api/storage/admin/providers`,
      { name: `portal-${dialect}`, type: 'azure', config: { connectionString: portal, container: 'videos' } },
      admin,
    );
    expect(created.status).toBe(201);
  });

  it('creates an account whose secret is shown once, and which then signs URLs', async ({ server, admin }) => {
    const created = await postJson(
      `${server.url}/api/storage/admin/accounts`,
      { name: `ops-${dialect}`, defaultProvider: 'disk', providers: ['aws'], directories: ['alice'] },
      admin,
    );
    expect(created.status).toBe(201);
    const a = created.body.data;
    expect(a).toMatchObject({
      name: `ops-${dialect}`,
      defaultProvider: 'disk',
      providers: ['disk', 'aws'],
      directories: ['alice'],
      enabled: true,
    });
    expect(a.accessKey).toMatch(/^SLAK[A-Z2-7]{20}$/);
    expect(Buffer.from(a.secretAccessKey, 'base64url').length).toBeGreaterThanOrEqual(32);
    const list = await getJson(`${server.url}/api/storage/admin/accounts`, admin);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(a.secretAccessKey);
    const row = await server.store.db
      .selectFrom('storage_accounts')
      .selectAll()
      .where('name', '=', a.name)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(a.secretAccessKey);

    const headers = {
      'x-service-storage-accesskey': a.accessKey,
      'x-service-storage-secretaccesskey': a.secretAccessKey,
      'x-service-storage-filename': 'alice/x.mp4',
      'x-service-storage-provider': 'aws',
    };
    expect((await getJson(`${server.url}/api/storage`, headers)).status).toBe(200);

    const rotated = await postJson(`${server.url}/api/storage/admin/accounts/${a.name}/rotate`, {}, admin);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.accessKey).toBe(a.accessKey);
    expect((await getJson(`${server.url}/api/storage`, headers)).body.code).toBe('invalid_credentials');
    expect(
      (
        await getJson(`${server.url}/api/storage`, {
          ...headers,
          'x-service-storage-secretaccesskey': rotated.body.data.secretAccessKey,
        })
      ).status,
    ).toBe(200);

    const disabled = await patchJson(`${server.url}/api/storage/admin/accounts/${a.name}`, { enabled: false }, admin);
    expect(disabled.body.data.enabled).toBe(false);
    expect(
      (
        await getJson(`${server.url}/api/storage`, {
          ...headers,
          'x-service-storage-secretaccesskey': rotated.body.data.secretAccessKey,
        })
      ).status,
    ).toBe(401);
  });

  it('refuses unknown providers, bad directories and duplicate names', async ({ server, admin }) => {
    const unknown = await postJson(
      `${server.url}/api/storage/admin/accounts`,
      { name: 'u1', defaultProvider: 'nope' },
      admin,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_provider', providers: ['nope'] });
    for (const directories of [[], ['a/b'], ['..'], ['*', 'a'], 'alice']) {
      const res = await postJson(
        `${server.url}/api/storage/admin/accounts`,
        { name: 'u2', defaultProvider: 'disk', directories },
        admin,
      );
      expect(res.status, JSON.stringify(directories)).toBe(400);
      expect(res.body.code).toBe('invalid_account');
    }
    // Nested deep: the message names the value without serialising it (JSON.stringify of 10 000 levels overflowed: a
    // 500). Past the 64 levels any JSON body may nest, the body is refused before it is parsed.
    for (const [levels, code] of [
      [60, 'invalid_account'],
      [10_000, 'malformed_json'],
    ] as const) {
      const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
      for (const field of ['directories', 'providers']) {
        const res = await fetch(`${server.url}/api/storage/admin/accounts`, {
          method: 'POST',
          headers: { ...admin, 'content-type': 'application/json' },
          body: `{"name":"u3","defaultProvider":"disk","${field}":[${deep}]}`,
        });
        expect([res.status, (await res.json()).code], `${field} ${levels}`).toEqual([400, code]);
      }
    }
    const many = await postJson(
      `${server.url}/api/storage/admin/accounts`,
      { name: 'u4', defaultProvider: 'disk', providers: Array.from({ length: 40_000 }, (_, i) => `q${i}`) },
      admin,
    );
    expect([many.status, many.body.code]).toEqual([400, 'invalid_account']);
    const dup = await postJson(
      `${server.url}/api/storage/admin/accounts`,
      { name: `ops-${dialect}`, defaultProvider: 'disk' },
      admin,
    );
    expect(dup.status).toBe(409);
  });

  it('is for owners and admins of the organisation only', async ({ server, org }) => {
    expect((await getJson(`${server.url}/api/storage/admin/accounts`)).status).toBe(401);
    for (const role of ['editor', 'viewer'] as const) {
      expect((await getJson(`${server.url}/api/storage/admin/accounts`, bearer(org.sessions[role]))).status).toBe(403);
    }
    expect((await getJson(`${server.url}/api/storage/admin/accounts`, bearer(org.token))).status).toBe(403);
    const other = await seedOrg(server.store);
    const theirs = await getJson(`${server.url}/api/storage/admin/accounts`, bearer(other.sessions.owner));
    expect(theirs.body.data).toEqual([]);
    expect(
      (await getJson(`${server.url}/api/storage/admin/providers`, bearer(other.sessions.owner))).body.data,
    ).toEqual([]);
    const patch = await patchJson(
      `${server.url}/api/storage/admin/accounts/ops-${dialect}`,
      { enabled: true },
      bearer(other.sessions.owner),
    );
    expect(patch.status).toBe(404);
  });
});

describe.each(DIALECTS)('signing key at startup on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  it('refuses to start with STORAGE_SIGNING=true and no key, or once an fs provider exists (enabled or not) without one', async () => {
    const noKey = loadConfig({ data: ts.location.dataDir }, { STORAGE_SIGNING: 'true' });
    await expect(buildApp({ config: noKey, store: ts.store, logger: false })).rejects.toThrow(
      /STORAGE_URL_SIGNING_KEY/,
    );
    const withKey = loadConfig({ data: ts.location.dataDir }, { STORAGE_URL_SIGNING_KEY: SIGNING_KEY });
    const org = await seedOrg(ts.store);
    await createProvider(ts.store, withKey, org.orgId, { name: 'disk', type: 'fs' });
    const plain = loadConfig({ data: ts.location.dataDir }, {});
    await expect(buildApp({ config: plain, store: ts.store, logger: false })).rejects.toThrow(/fs storage provider/);
    // Disabled, it still counts: enabling it later would leave the running server unable to sign its URLs.
    await enableProvider(ts.store, org.orgId, 'disk', false);
    await expect(buildApp({ config: plain, store: ts.store, logger: false })).rejects.toThrow(/fs storage provider/);
    const ok = await buildApp({ config: withKey, store: ts.store, logger: false });
    await ok.close();
    await expect(createProvider(ts.store, plain, org.orgId, { name: 'disk2', type: 'fs' })).rejects.toThrow(
      /STORAGE_URL_SIGNING_KEY/,
    );
  });
});

describe('DEFAULT_URI_EXPIRY_TIME', () => {
  it.each([
    ['90', 90],
    ['30m', 1800],
    ['7d', 604_800],
    ['1h30m', 5400],
  ])('accepts %s', (value, seconds) => {
    expect(loadConfig({}, { DEFAULT_URI_EXPIRY_TIME: value }).storage.defaultUriExpirySeconds).toBe(seconds);
  });
  it.each(['0', '8d', '604801', '-1', 'abc'])(
    'refuses %s at startup: outside 1 s … 7 days, like a request',
    (value) => {
      expect(() => loadConfig({}, { DEFAULT_URI_EXPIRY_TIME: value })).toThrow(/DEFAULT_URI_EXPIRY_TIME/);
    },
  );
});
