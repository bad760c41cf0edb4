// Azure SAS URLs against a real Azure Blob emulator (Azurite, which checks the SAS signature): native URLs downloaded
// whole and by Range, refused when tampered with or used to write; uploads through the provider's own SAS; and the
// same blob streamed through service-signed URLs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/store.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { uploadFile } from '../../src/storage/upload.js';
import { STORAGE_ENV, getUrl, seedStorage, unique } from './helpers.js';
import { AZURITE_ACCOUNT, startAzurite, type Azurite } from './azurite.js';
import { expectIfRangeHonoured } from './if-range.js';

const video = Buffer.alloc(150_000);
for (let i = 0; i < video.length; i++) video[i] = (i * 13) % 251;
const KEY = 'alice/1700000000_cam1 (front).mp4';

async function seedAzure(server: TestServer, azurite: Azurite, onSeeded?: (orgId: string, provider: string) => void) {
  const fx = await seedStorage(server);
  const name = unique('azure');
  await createProvider(server.store, server.config, fx.orgId, {
    name,
    type: 'azure',
    config: { ...AZURITE_ACCOUNT, container: azurite.container, endpoint: azurite.endpoint },
  });
  const local = path.join(server.config.dataDir, `${name}.mp4`);
  fs.writeFileSync(local, video);
  await uploadFile(server.store, server.config, fx.orgId, name, local, KEY);
  onSeeded?.(fx.orgId, name);
  const account = await createAccount(server.store, fx.orgId, {
    name: unique('acct'),
    defaultProvider: name,
    providers: [],
  });
  return (filename: string) => ({
    'x-service-storage-accesskey': account.accessKey,
    'x-service-storage-secretaccesskey': account.secretAccessKey,
    'x-service-storage-filename': filename,
    'x-service-storage-provider': name,
  });
}

describe.each(DIALECTS)('Azure SAS URLs against Azurite on %s', (dialect) => {
  let native: TestServer;
  let signing: TestServer;
  let azurite: Azurite;
  beforeAll(async () => {
    [native, signing, azurite] = await Promise.all([
      startTestServer(dialect, STORAGE_ENV),
      startTestServer(dialect, { ...STORAGE_ENV, STORAGE_SIGNING: 'true' }),
      startAzurite(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([native?.close(), signing?.close(), azurite?.close()]);
  });

  it('downloads the uploaded blob through the native SAS URL, whole and by Range, and nothing else', async () => {
    const headers = await seedAzure(native, azurite);
    const res = await getUrl(native, headers(KEY));
    expect(res.status).toBe(200);
    const url: string = res.body.data;
    expect(url.startsWith(`${azurite.endpoint}/media/alice/1700000000_cam1%20%28front%29.mp4?sv=2020-12-06&se=`)).toBe(
      true,
    );
    expect(url).toContain('&sr=b&sp=r&sig=');
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/150000');
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(1000, 2000))).toBe(true);
    // Azurite checks the signature: a changed one, a longer lifetime than signed, or a write with a read URL fail.
    const sig = new URL(url).searchParams.get('sig')!;
    const forged = url.replace(
      encodeURIComponent(sig),
      encodeURIComponent(`${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`),
    );
    expect((await fetch(forged)).status).toBe(403);
    const longer = url.replace(/se=\d{4}/, (m) => `se=${Number(m.slice(3)) + 1}`);
    expect((await fetch(longer)).status).toBe(403);
    const write = await fetch(url, { method: 'PUT', body: 'overwritten', headers: { 'x-ms-blob-type': 'BlockBlob' } });
    expect(write.status).toBe(403);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(video)).toBe(true);
  });

  it('streams the same blob through a service-signed URL, with Range and 416', async () => {
    const headers = await seedAzure(signing, azurite);
    const url: string = (await getUrl(signing, headers(KEY))).body.data;
    expect(url.startsWith(`${signing.url}/api/storage/signed?`)).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('150000');
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const tail = await fetch(url, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 149900-149999/150000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(-100))).toBe(true);
    expect((await fetch(url, { headers: { range: 'bytes=200000-' } })).status).toBe(416);
  });

  it('answers a stale If-Range with the whole new blob (never a spliced 206), a fresh one with 206', async () => {
    let seeded: [string, string] = ['', ''];
    const headers = await seedAzure(signing, azurite, (orgId, name) => {
      seeded = [orgId, name];
    });
    await expectIfRangeHonoured(signing, ...seeded, (key) => getUrl(signing, headers(key)));
  });
});
