// The storage admin CLI against a server with its own handle on the store and a real S3-compatible server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { postJson, serveLocation } from '../support/server.js';
import { runCli } from '../support/cli.js';
import { MASTER_KEY, SIGNING_KEY } from './helpers.js';
import { S3RVER_KEYS, startS3rver, type S3Server } from './s3rver.js';

describe.each(DIALECTS)('storage CLI on %s', (dialect) => {
  let ts: TestStore;
  let s3: S3Server;
  const env = { STORAGE_URL_SIGNING_KEY: SIGNING_KEY, SIGHTLINE_MASTER_KEY: MASTER_KEY };
  const json = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], ts.location, env);
    expect(r.stderr, r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!);
  };
  beforeAll(async () => {
    [ts, s3] = await Promise.all([createTestStore(dialect), startS3rver()]);
  });
  afterAll(async () => {
    await Promise.all([ts.destroy(), s3.close()]);
  });

  it('creates providers and accounts without an organisation, uploads with storage put, and a server honours them', async () => {
    const root = path.join(ts.location.dataDir, 'files');
    expect(await json('admin', 'provider', 'create', '--name', 'disk', '--type', 'fs', '--root', root)).toMatchObject({
      name: 'disk',
      type: 'fs',
      enabled: true,
    });
    const minio = await json(
      'admin',
      'provider',
      'create',
      '--name',
      'minio',
      '--type',
      's3',
      '--bucket',
      s3.bucket,
      '--region',
      'us-east-1',
      '--endpoint',
      s3.endpoint,
      '--path-style',
      '--access-key-id',
      S3RVER_KEYS.accessKeyId,
      '--secret-access-key',
      S3RVER_KEYS.secretAccessKey,
    );
    expect(minio).toMatchObject({
      name: 'minio',
      type: 's3',
      hasCredentials: true,
      config: { bucket: s3.bucket, endpoint: s3.endpoint, pathStyle: true },
    });
    const list = await json('admin', 'provider', 'list');
    expect(list.providers.map((p: { name: string }) => p.name)).toEqual(['disk', 'minio']);
    const readable = await runCli(['admin', 'provider', 'list'], ts.location, env);
    expect(readable.stdout).toContain('minio\ts3\tenabled');
    for (const out of [JSON.stringify(list), JSON.stringify(minio), readable.stdout])
      expect(out).not.toContain(`${S3RVER_KEYS.secretAccessKey}"`);

    const account = await json(
      'admin',
      'account',
      'create',
      '--name',
      'web',
      '--provider',
      'disk',
      '--provider',
      'minio',
      '--directory',
      'alice',
    );
    // Spec §2's account, with its secret this once (and its timestamps, as the admin API answers).
    expect(Object.keys(account).sort()).toEqual([
      'accessKey',
      'createdAt',
      'defaultProvider',
      'directories',
      'enabled',
      'name',
      'providers',
      'secretAccessKey',
      'updatedAt',
    ]);
    expect(account).toMatchObject({
      name: 'web',
      defaultProvider: 'disk',
      providers: ['disk', 'minio'],
      directories: ['alice'],
      enabled: true,
    });
    const accounts = await json('admin', 'account', 'list');
    expect(accounts.accounts[0]).toMatchObject({ name: 'web', directories: ['alice'], enabled: true });
    expect(JSON.stringify(accounts)).not.toContain(account.secretAccessKey);

    const local = path.join(ts.location.dataDir, 'clip.mp4');
    fs.writeFileSync(local, 'video bytes, through the fs provider');
    expect(
      await json('storage', 'put', '--provider', 'disk', '--file', local, '--key', 'alice/clip.mp4'),
    ).toMatchObject({ provider: 'disk', key: 'alice/clip.mp4', size: 36 });
    // A last segment of 255 bytes, the most a file name can have: the upload's temporary name must not add to it.
    const longest = `alice/${'e'.repeat(251)}.mp4`;
    expect(await json('storage', 'put', '--provider', 'disk', '--file', local, '--key', longest)).toMatchObject({
      key: longest,
      size: 36,
    });
    fs.writeFileSync(local, 'video bytes, through s3');
    expect(
      await json('storage', 'put', '--provider', 'minio', '--file', local, '--key', 'alice/clip.mp4'),
    ).toMatchObject({ provider: 'minio', size: 23 });

    const server = await serveLocation(ts.location, env);
    try {
      const headers = {
        'x-service-storage-accesskey': account.accessKey,
        'x-service-storage-secretaccesskey': account.secretAccessKey,
      };
      const res = await postJson(`${server.url}/api/storage/bulk`, [{ filename: 'alice/clip.mp4' }], headers);
      expect(res.status).toBe(200);
      const url = JSON.parse(res.body.data)['alice/clip.mp4'];
      expect(await (await fetch(url)).text()).toBe('video bytes, through the fs provider');
      const native = await (
        await fetch(`${server.url}/api/storage`, {
          headers: {
            ...headers,
            'x-service-storage-filename': 'alice/clip.mp4',
            'x-service-storage-provider': 'minio',
          },
        })
      ).json();
      expect(native.data.startsWith(`${s3.endpoint}/${s3.bucket}/alice/clip.mp4?X-Amz-Algorithm=`)).toBe(true);
      expect(await (await fetch(native.data)).text()).toBe('video bytes, through s3');

      const rotated = await json('admin', 'account', 'rotate', '--name', 'web');
      expect(rotated).toMatchObject({
        name: 'web',
        accessKey: account.accessKey,
        defaultProvider: 'disk',
        directories: ['alice'],
        enabled: true,
      });
      expect((await postJson(`${server.url}/api/storage/bulk`, [], headers)).status).toBe(401);
      expect(
        (
          await postJson(`${server.url}/api/storage/bulk`, [], {
            ...headers,
            'x-service-storage-secretaccesskey': rotated.secretAccessKey,
          })
        ).status,
      ).toBe(200);
      expect(await json('admin', 'account', 'disable', '--name', 'web')).toEqual({ name: 'web', enabled: false });
      expect((await fetch(url)).status).toBe(401);
      expect(
        (
          await postJson(`${server.url}/api/storage/bulk`, [], {
            ...headers,
            'x-service-storage-secretaccesskey': rotated.secretAccessKey,
          })
        ).status,
      ).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('takes azure and gcs providers with their own flags and never prints their secrets', async () => {
    const accountKey = Buffer.alloc(64, 9).toString('base64');
    const az = await json(
      'admin',
      'provider',
      'create',
      '--name',
      'blob',
      '--type',
      'azure',
      '--account',
      'acct',
      '--container',
      'videos',
      '--account-key',
      accountKey,
    );
    expect(az).toMatchObject({ type: 'azure', config: { account: 'acct', container: 'videos' } });
    const keyFile = path.join(import.meta.dirname, 'fixtures', 'gcs-conformance-key.json');
    const gcs = await json(
      'admin',
      'provider',
      'create',
      '--name',
      'gcs',
      '--type',
      'gcs',
      '--bucket',
      'media',
      '--service-account-key',
      keyFile,
    );
    expect(gcs).toMatchObject({
      type: 'gcs',
      config: { bucket: 'media', clientEmail: 'test-iam-credentials@dummy-project-id.iam.gserviceaccount.com' },
    });
    const all = JSON.stringify(await json('admin', 'provider', 'list'));
    expect(all).not.toContain(accountKey);
    expect(all).not.toContain('PRIVATE KEY');
  });

  it('fails with a non-zero exit and a clear message on bad input, and knows no old command names', async () => {
    // Exit 2: a flag's value is wrong (usage printed); exit 1: the store lacks or already has what it names.
    const cases: Array<[string[], RegExp, number]> = [
      [
        ['admin', 'provider', 'create', '--name', 'x', '--type', 's3', '--bucket', 'vids'],
        /--access-key-id is required/,
        2,
      ],
      [['admin', 'provider', 'create', '--name', 'x', '--type', 'ftp'], /--type must be one of fs, s3, azure, gcs/, 2],
      [
        ['admin', 'provider', 'create', '--name', 'x', '--type', 'fs', '--bucket', 'b'],
        /--bucket does not apply to --type fs/,
        2,
      ],
      [['admin', 'provider', 'create', '--name', 'disk', '--type', 'fs'], /already exists/, 1],
      [['admin', 'provider', 'create', '--type', 'fs'], /--name is required/, 2],
      [['admin', 'account', 'create', '--name', 'a2'], /--provider is required/, 2],
      [['admin', 'account', 'create', '--name', 'a2', '--provider', 'nope'], /No provider named "nope"/, 1],
      [['admin', 'account', 'create', '--name', 'a2', '--provider', 'disk', '--directory', 'a/b'], /directory/, 2],
      [['admin', 'account', 'disable', '--name', 'ghost'], /No account named "ghost"/, 1],
      [['admin', 'account', 'rotate', '--name', 'ghost'], /No account named "ghost"/, 1],
      [['storage', 'put', '--provider', 'disk', '--file', '/nonexistent/file', '--key', 'alice/x'], /Cannot read/, 2],
      [
        ['storage', 'put', '--provider', 'disk', '--file', '/etc/hostname', '--key', '../escape'],
        /invalid|".." path segment/,
        2,
      ],
      [
        ['storage', 'put', '--provider', 'ghost', '--file', '/etc/hostname', '--key', 'alice/x'],
        /No provider named "ghost"/,
        1,
      ],
      [['admin', 'provider', 'list', '--org', 'no-such-org'], /no-such-org/, 1],
      // The shared validation's field names come out as the flags to give.
      [
        [
          'admin',
          'provider',
          'create',
          '--name',
          'half',
          '--type',
          's3',
          '--bucket',
          'media-bucket',
          '--region',
          'eu-west-1',
          '--access-key-id',
          'AK',
        ],
        /--secret-access-key is required/,
        2,
      ],
    ];
    const olds = [
      ['admin', 'storage-provider', 'list'],
      ['admin', 'storage-account', 'list'],
    ];
    const all = [...cases.map(([args]) => args), ...olds];
    // One after another: in-process they take milliseconds, and SQLite stores opened side by side in one thread
    // would wait on each other's locks synchronously.
    const results: Awaited<ReturnType<typeof runCli>>[] = [];
    for (const args of all) results.push(await runCli(args, ts.location, env));
    cases.forEach(([args, message, code], i) => {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    });
    for (const r of results.slice(cases.length)) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('unknown command');
    }
  });

  it('keeps organisation-owned providers and accounts apart when --org is given', async () => {
    await json('admin', 'org', 'create', '--name', 'media');
    const root = path.join(ts.location.dataDir, 'org-files');
    await json('admin', 'provider', 'create', '--org', 'media', '--name', 'disk', '--type', 'fs', '--root', root);
    expect(
      (await json('admin', 'provider', 'list', '--org', 'media')).providers.map((p: { name: string }) => p.name),
    ).toEqual(['disk']);
    const acct = await json(
      'admin',
      'account',
      'create',
      '--org',
      'media',
      '--name',
      'media-web',
      '--provider',
      'disk',
    );
    expect(acct.providers).toEqual(['disk']);
    // Without --org: every owner's, each naming its organisation (null: service-wide).
    expect(
      (await json('admin', 'account', 'list')).accounts.map((a: { name: string; organisation: string | null }) => [
        a.organisation,
        a.name,
      ]),
    ).toEqual([
      [null, 'web'],
      ['media', 'media-web'],
    ]);
    expect((await runCli(['admin', 'account', 'list'], ts.location, env)).stdout).toMatch(/^media\tmedia-web\t/m);
    expect(
      (await json('admin', 'account', 'list', '--org', 'media')).accounts.map((a: { name: string }) => a.name),
    ).toEqual(['media-web']);
    // Account names are unique across the service: a signed URL names its account by `a` alone.
    const dup = await runCli(
      ['admin', 'account', 'create', '--name', 'media-web', '--provider', 'disk'],
      ts.location,
      env,
    );
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
  });
});
