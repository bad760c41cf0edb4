// POST /detections with a Content-Encoding: gzip, deflate and br bodies are decoded, and the 32 MiB limit holds for
// the decoded bytes while they are decoded.
import http from 'node:http';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson } from '../support/server.js';

const MiB = 1024 * 1024;
const tests = serverTests();

const compress = {
  gzip: (bytes: Buffer) => gzipSync(bytes),
  deflate: (bytes: Buffer) => deflateSync(bytes),
  br: (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

/** 1 GiB of JSON whitespace as concatenated gzip members of 1 MiB each (a valid gzip body of about 1 MiB). */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(MiB, 0x20), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 }, () => member));
}

/** Sends `body` as it is with these headers; Content-Length is the coded length unless `headers` names one. */
function send(url: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-length': String(body?.length ?? 0), ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
    });
    // The server may answer and close before the body is all sent.
    req.on('error', (err) => (err.message.includes('EPIPE') ? undefined : reject(err)));
    if (body) req.end(body);
    else req.flushHeaders();
  });
}

describe.each(DIALECTS)('POST /detections with a coded body on %s', (dialect) => {
  const it = tests[dialect]
    .extend('run', ({ org }) => (runId: string, boxesPerTrack = 2, tracks = 1) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      source: { kind: 'model', name: 'yolo', version: '8', runId },
      coordinateSpace: 'normalized',
      tracks: Array.from({ length: tracks }, (_, t) => ({
        id: `t${t}`,
        label: 'person',
        boxes: Array.from({ length: boxesPerTrack }, (_, frame) => ({
          frame,
          x: 0.1 + (frame % 100) / 1000,
          y: 0.2,
          w: 0.123456789,
          h: 0.3,
          confidence: 0.5 + (frame % 50) / 100,
        })),
      })),
    }))
    .extend(
      'post',
      ({ server, org }) =>
        (body: Buffer, headers: Record<string, string> = {}, path = '/detections') =>
          send(`${server.url}${path}`, bearer(org.token, { 'content-type': 'application/json', ...headers }), body),
    )
    .extend('stored', ({ server, org }) => async (runId: string) => {
      const res = await getJson(
        `${server.url}/detections/${runId}?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`,
        bearer(org.token),
      );
      const { createdAt: _c, updatedAt: _u, runId: _r, source, ...rest } = res.body.data;
      return { ...rest, source: { ...source, runId: undefined } } as Record<string, unknown>;
    });

  it('stores a gzip, deflate or br run of several MiB exactly as the same body uncompressed', async ({
    run,
    post,
    stored,
  }) => {
    const body = (runId: string) => Buffer.from(JSON.stringify(run(runId, 20_000, 3)));
    expect(body('plain').length).toBeGreaterThan(4 * MiB);
    expect((await post(body('plain'))).status).toBe(201);
    const plain = await stored('plain');
    expect(plain.boxesStored).toBe(60_000);
    for (const coding of ['gzip', 'deflate', 'br'] as const) {
      const coded = compress[coding](body(coding));
      const res = await post(coded, { 'content-encoding': coding });
      expect([coding, res.status, res.body]).toEqual([
        coding,
        201,
        { runId: coding, tracksStored: 3, boxesStored: 60_000, rejected: [], warnings: [] },
      ]);
      expect(await stored(coding)).toEqual(plain);
    }
    // The header's case and spaces do not matter, and identity is no coding.
    expect((await post(gzipSync(JSON.stringify(run('upper'))), { 'content-encoding': ' GZIP ' })).status).toBe(201);
    expect((await post(Buffer.from(JSON.stringify(run('same'))), { 'content-encoding': 'identity' })).status).toBe(201);
  });

  it('413 at once for a small gzip that inflates past 32 MiB, holding no more than the limit', async ({ post }) => {
    const bomb = gzipBomb();
    expect(bomb.length).toBeLessThan(2 * MiB);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const res = await post(bomb, { 'content-encoding': 'gzip' });
    const took = performance.now() - started;
    const grown = process.memoryUsage().rss - before;
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
    // Inflating the whole GiB, even without holding it, takes seconds: the decoding stops at the limit.
    expect(took).toBeLessThan(5000);
    expect(grown).toBeLessThan(100 * MiB);
  });

  it('413 for a br body that decodes past 32 MiB', async ({ post }) => {
    const res = await post(compress.br(Buffer.alloc(40 * MiB, 0x20)), { 'content-encoding': 'br' });
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('413 from a coded Content-Length over 32 MiB, before any byte is sent', async ({ server, org }) => {
    const res = await send(
      `${server.url}/detections`,
      bearer(org.token, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(33 * MiB),
      }),
    );
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('asks for a coded body under the limit with 100 Continue, and stores it', async ({ server, org, run }) => {
    const coded = gzipSync(JSON.stringify(run('continued')));
    const answer = await new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
      let continued = false;
      const req = http.request(`${server.url}/detections`, {
        method: 'POST',
        headers: bearer(org.token, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(coded.length),
          expect: '100-continue',
        }),
      });
      req.on('continue', () => {
        continued = true;
        req.end(coded);
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ continued, status: res.statusCode! });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer).toEqual({ continued: true, status: 201 });
  });

  it('400 malformed_body for a corrupt or cut-off coded body', async ({ run, post }) => {
    const good = gzipSync(Buffer.from(JSON.stringify(run('corrupt'))));
    const flipped = Buffer.from(good);
    flipped[20] = flipped[20]! ^ 0xff;
    for (const [coding, body] of [
      ['gzip', Buffer.from('not gzip at all')],
      ['gzip', flipped],
      ['gzip', good.subarray(0, good.length - 12)],
      ['deflate', Buffer.from('not deflate')],
      ['br', Buffer.from('not brotli, not at all')],
    ] as const) {
      const res = await post(body, { 'content-encoding': coding });
      expect([coding, res.status, res.body.code]).toEqual([coding, 400, 'malformed_body']);
    }
  });

  it('415 for other codings on POST /detections, and for any coding on other routes', async ({ run, post }) => {
    const body = Buffer.from(JSON.stringify(run('other-coding')));
    for (const coding of ['compress', 'zstd', 'gzip, br', 'x-unknown']) {
      const res = await post(body, { 'content-encoding': coding });
      expect([coding, res.status, res.body.code]).toEqual([coding, 415, 'unsupported_media_type']);
    }
    for (const path of ['/login', '/recordings']) {
      const res = await post(gzipSync('{}'), { 'content-encoding': 'gzip' }, path);
      expect([path, res.status, res.body.code]).toEqual([path, 415, 'unsupported_media_type']);
    }
  });
});
