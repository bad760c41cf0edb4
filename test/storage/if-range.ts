// One check of If-Range through a service-signed URL, run against every remote backend: a download resumed with the
// old version's ETag after the object was replaced must get the whole new object (200), never the new object's tail
// spliced onto the old head; the new ETag gets its 206; a date or a weak tag never matches.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { uploadFile } from '../../src/storage/upload.js';
import type { TestServer } from '../support/server.js';
import { unique } from './helpers.js';

const SIZE = 120_000;
const HALF = SIZE / 2;

function version(seed: number): Buffer {
  const bytes = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i++) bytes[i] = (i * seed + seed) % 251;
  return bytes;
}

async function body(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

export async function expectIfRangeHonoured(
  server: TestServer,
  orgId: string,
  provider: string,
  issue: (key: string) => Promise<{ status: number; body: { data: string } }>,
): Promise<void> {
  const key = `alice/${unique('resume')}.mp4`;
  const put = async (bytes: Buffer) => {
    const local = path.join(server.config.dataDir, `${unique('upload')}.mp4`);
    fs.writeFileSync(local, bytes);
    await uploadFile(server.store, server.config, orgId, provider, local, key);
  };
  const [before, after] = [version(7), version(11)];
  await put(before);
  const issued = await issue(key);
  expect(issued.status).toBe(200);
  const url = issued.body.data;

  // The first half of the old version, as a download that is then cut off.
  const head = await fetch(url, { headers: { range: `bytes=0-${HALF - 1}` } });
  expect(head.status).toBe(206);
  const oldTag = head.headers.get('etag')!;
  const oldDate = head.headers.get('last-modified')!;
  expect((await body(head)).equals(before.subarray(0, HALF))).toBe(true);

  await put(after);
  const resumed = await fetch(url, { headers: { range: `bytes=${HALF}-`, 'if-range': oldTag } });
  expect(resumed.status).toBe(200);
  expect(resumed.headers.get('content-range')).toBeNull();
  expect(resumed.headers.get('content-length')).toBe(String(SIZE));
  const newTag = resumed.headers.get('etag')!;
  expect(newTag).not.toBe(oldTag);
  expect((await body(resumed)).equals(after)).toBe(true);

  const fresh = await fetch(url, { headers: { range: `bytes=${HALF}-`, 'if-range': newTag } });
  expect(fresh.status).toBe(206);
  expect(fresh.headers.get('content-range')).toBe(`bytes ${HALF}-${SIZE - 1}/${SIZE}`);
  expect((await body(fresh)).equals(after.subarray(HALF))).toBe(true);

  const staleHead = await fetch(url, { method: 'HEAD', headers: { range: `bytes=${HALF}-`, 'if-range': oldTag } });
  expect(staleHead.status).toBe(200);
  expect(staleHead.headers.get('content-length')).toBe(String(SIZE));

  // Neither a date (the old one, or any) nor a weak tag can vouch for the version: the whole object.
  for (const ifRange of [oldDate, new Date().toUTCString(), `W/${newTag}`]) {
    const res = await fetch(url, { headers: { range: `bytes=${HALF}-`, 'if-range': ifRange } });
    expect(res.status, ifRange).toBe(200);
    expect((await body(res)).equals(after), ifRange).toBe(true);
  }

  // The client's own If-Match still decides: a fresh If-Range does not lift it.
  const mismatched = await fetch(url, { headers: { range: `bytes=${HALF}-`, 'if-range': newTag, 'if-match': oldTag } });
  expect(mismatched.status).toBe(412);
  await mismatched.arrayBuffer();
}
