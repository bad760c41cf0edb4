// Real backends: native S3 URLs downloaded from an S3-compatible server process, the same objects streamed through
// service-signed URLs, and a provider that is down while the others keep serving.
import { describe, expect } from 'vitest';
import { extendEach, storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import type { TestServer } from '../support/server.js';
import { freePort } from '../support/cli.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { uploadFile } from '../../src/storage/upload.js';
import { STORAGE_ENV, getUrl, unique, writeObject, type StorageFixture } from './helpers.js';
import { S3RVER_KEYS, startS3rver, type S3Server } from './s3rver.js';
import { expectIfRangeHonoured } from './if-range.js';
import fs from 'node:fs';
import path from 'node:path';

const video = Buffer.alloc(200_000);
for (let i = 0; i < video.length; i++) video[i] = (i * 7) % 256;

async function seedS3(server: TestServer, s3: S3Server, fx: StorageFixture, pathStyle: boolean | undefined = true) {
  const name = unique('minio');
  await createProvider(server.store, server.config, fx.orgId, {
    name,
    type: 's3',
    config: {
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      ...(pathStyle === undefined ? {} : { pathStyle }),
      ...S3RVER_KEYS,
    },
  });
  const local = path.join(server.config.dataDir, `${name}.mp4`);
  fs.writeFileSync(local, video);
  await uploadFile(server.store, server.config, fx.orgId, name, local, 'alice/1700000000_cam1.mp4');
  const account = await createAccount(server.store, fx.orgId, {
    name: unique('acct'),
    defaultProvider: name,
    providers: ['disk'],
  });
  const headers = (filename: string, provider = name) => ({
    'x-service-storage-accesskey': account.accessKey,
    'x-service-storage-secretaccesskey': account.secretAccessKey,
    'x-service-storage-filename': filename,
    'x-service-storage-provider': provider,
  });
  return { name, headers };
}

/** `s3`: an s3rver of the file's own (in this process), closed when the file ends. */
function withS3rver<T extends ReturnType<typeof storageTests>['sqlite']>(test: T) {
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from a destructuring pattern.
  return test.extend('s3', { scope: 'file' }, async ({}, { onCleanup }): Promise<S3Server> => {
    const s3 = await startS3rver();
    onCleanup(() => s3.close());
    return s3;
  });
}

const native = extendEach(storageTests({ env: STORAGE_ENV }), withS3rver);
// fx's 'disk' holds alice/notes.txt, written before the file's first test of these.
const signing = extendEach(
  storageTests({ env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true', STORAGE_PROVIDER_TIMEOUT_MS: '2000' } }),
  (test) =>
    withS3rver(test).extend('notes', { scope: 'file', auto: true }, ({ fx }) => {
      writeObject(fx.root, 'alice/notes.txt', 'still here');
      return 'alice/notes.txt';
    }),
);

describe.each(DIALECTS)('native S3 URLs against s3rver on %s', (dialect) => {
  const it = native[dialect];

  it('downloads the object, whole and by Range, straight from the backend', async ({ server, s3, fx }) => {
    const { headers } = await seedS3(server, s3, fx);
    const res = await getUrl(server, headers('alice/1700000000_cam1.mp4'));
    expect(res.status).toBe(200);
    const url: string = res.body.data;
    expect(
      url.startsWith(`${s3.endpoint}/${s3.bucket}/alice/1700000000_cam1.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&`),
    ).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/200000');
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(1000, 2000))).toBe(true);
    const missing = await fetch((await getUrl(server, headers('alice/none.mp4'))).body.data);
    expect(missing.status).toBe(404);
  });

  it('is refused by the emulator when the SigV4 signature or a signed parameter is changed', async ({
    server,
    s3,
    fx,
  }) => {
    const { headers } = await seedS3(server, s3, fx);
    const url: string = (await getUrl(server, headers('alice/1700000000_cam1.mp4'))).body.data;
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const forged = url.replace(signature, `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    const refused = await fetch(forged);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('SignatureDoesNotMatch');
    const longer = await fetch(url.replace(/X-Amz-Expires=(\d+)/, (_m, n) => `X-Amz-Expires=${Number(n) + 1}`));
    expect(longer.status).toBe(403);
    expect((await fetch(url)).status).toBe(200);
  });

  it('addresses an endpoint that is an IP address path-style even when pathStyle is not set (uploads and URLs)', async ({
    server,
    s3,
    fx,
  }) => {
    expect(new URL(s3.endpoint).hostname).toBe('127.0.0.1');
    const { headers } = await seedS3(server, s3, fx, undefined);
    const res = await getUrl(server, headers('alice/1700000000_cam1.mp4'));
    expect(res.status).toBe(200);
    expect(res.body.data.startsWith(`${s3.endpoint}/${s3.bucket}/alice/`)).toBe(true);
    const whole = await fetch(res.body.data);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
  });
});

describe.each(DIALECTS)('service-signed URLs over s3rver, and a provider that is down, on %s', (dialect) => {
  const it = signing[dialect];

  it('streams the S3 object through the service with Range, ETag and 304', async ({ server, s3, fx }) => {
    const { headers } = await seedS3(server, s3, fx);
    const url: string = (await getUrl(server, headers('alice/1700000000_cam1.mp4'))).body.data;
    expect(url.startsWith(`${server.url}/api/storage/signed?`)).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('200000');
    expect(whole.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const etag = whole.headers.get('etag')!;
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    // (s3rver answers suffix ranges such as bytes=-100 wrongly, so an open range stands in.)
    const part = await fetch(url, { headers: { range: 'bytes=199900-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 199900-199999/200000');
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(-100))).toBe(true);
    const unsatisfiable = await fetch(url, { headers: { range: 'bytes=300000-' } });
    expect(unsatisfiable.status).toBe(416);
    expect((await unsatisfiable.json()).code).toBe('range_not_satisfiable');
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('200000');
  });

  it('answers a stale If-Range with the whole new object (never a spliced 206), a fresh one with 206', async ({
    server,
    s3,
    fx,
  }) => {
    const { name, headers } = await seedS3(server, s3, fx);
    await expectIfRangeHonoured(server, fx.orgId, name, (key) => getUrl(server, headers(key)));
  });

  it('answers 502 provider_unavailable for an S3 endpoint on a closed port, without a credential, while fs keeps serving', async ({
    server,
    fx,
  }) => {
    const port = await freePort();
    const name = unique('down');
    await createProvider(server.store, server.config, fx.orgId, {
      name,
      type: 's3',
      config: {
        bucket: 'media-bucket',
        endpoint: `http://127.0.0.1:${port}`,
        pathStyle: true,
        accessKeyId: 'AKIDDOWN',
        secretAccessKey: 'down-secret-value',
      },
    });
    const account = await createAccount(server.store, fx.orgId, {
      name: unique('acct'),
      defaultProvider: name,
      providers: ['disk'],
    });
    const h = (filename: string, provider: string) => ({
      'x-service-storage-accesskey': account.accessKey,
      'x-service-storage-secretaccesskey': account.secretAccessKey,
      'x-service-storage-filename': filename,
      'x-service-storage-provider': provider,
    });
    const downUrl: string = (await getUrl(server, h('alice/x.mp4', name))).body.data;
    const fsUrl: string = (await getUrl(server, h('alice/notes.txt', 'disk'))).body.data;
    const [down, up] = await Promise.all([fetch(downUrl), fetch(fsUrl)]);
    expect(down.status).toBe(502);
    const body = await down.json();
    expect(body).toMatchObject({ code: 'provider_unavailable', provider: name });
    expect(JSON.stringify(body)).not.toMatch(/down-secret-value|AKIDDOWN/);
    expect(up.status).toBe(200);
    expect(await up.text()).toBe('still here');
  });
});
