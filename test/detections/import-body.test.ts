// POST /detections/import reads its body with the format's reader as the bytes arrive (import-body.ts): the limits and
// failures of a gathered body hold all the same, over real HTTP on each dialect.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson } from '../support/server.js';

const MiB = 1024 * 1024;
const tests = serverTests();

/** MOT rows of `tracks` tracks over `frames` frames, in frame order, as a tracker writes them. */
function motRows(tracks: number, frames: number): Buffer {
  const lines: string[] = [];
  for (let f = 1; f <= frames; f++)
    for (let t = 1; t <= tracks; t++) lines.push(`${f},${t},${10 * t + f},${20 + f},40.5,80.25,0.9,-1,-1,-1`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Sends `chunks` one write at a time: with `length` as Content-Length, or chunked (Transfer-Encoding) without one.
 * The next chunk goes only once the last has left, so that the server sees the body in these pieces.
 */
function send(url: string, headers: Record<string, string>, chunks: Buffer[], length?: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { ...headers, ...(length !== undefined ? { 'content-length': String(length) } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
    });
    // The server may answer and close before the body is all sent.
    req.on('error', (err) => (/EPIPE|ECONNRESET/.test(err.message) ? undefined : reject(err)));
    const next = (i: number) => {
      if (i === chunks.length) return req.end();
      req.write(chunks[i], () => next(i + 1));
    };
    next(0);
  });
}

/** `bytes` cut into pieces of 1 to `most` bytes, from a fixed seed. */
function pieces(bytes: Buffer, most: number): Buffer[] {
  const out: Buffer[] = [];
  let seed = 7;
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % most);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe.each(DIALECTS)('POST /detections/import body reading on %s', (dialect) => {
  const it = tests[dialect]
    .extend('importUrl', ({ server, org }) => (query: string) => {
      const key = encodeURIComponent(org.recording.mediaKey);
      return `${server.url}/detections/import?format=mot&mediaKey=${key}&width=1920&height=1080&${query}`;
    })
    .extend(
      'headers',
      ({ org }) =>
        (extra: Record<string, string> = {}) =>
          bearer(org.token, { 'content-type': 'text/plain', ...extra }),
    )
    .extend('tracksOf', ({ server, org }) => async (runId: string) => {
      const key = encodeURIComponent(org.recording.mediaKey);
      const res = await getJson(`${server.url}/detections/${runId}?mediaKey=${key}`, bearer(org.token));
      expect(res.status).toBe(200);
      return res.body.data.tracks as unknown[];
    });

  it('stores a file sent in small pieces, chunked or with a length, as the same file sent at once', async ({
    importUrl,
    headers,
    tracksOf,
  }) => {
    const file = motRows(20, 40);
    const whole = await send(importUrl('runId=whole'), headers(), [file], file.length);
    const chunked = await send(importUrl('runId=chunked'), headers(), pieces(file, 97));
    const sized = await send(importUrl('runId=sized'), headers(), pieces(file, 13), file.length);
    expect([whole.status, chunked.status, sized.status]).toEqual([201, 201, 201]);
    expect(chunked.body.boxesStored).toBe(800);
    const expected = await tracksOf('whole');
    expect(await tracksOf('chunked')).toEqual(expected);
    expect(await tracksOf('sized')).toEqual(expected);
  });

  it('names the run after the whole file when no runId is given, however it arrived', async ({
    importUrl,
    headers,
  }) => {
    const file = motRows(3, 5);
    const first = await send(importUrl(''), headers(), [file], file.length);
    const again = await send(importUrl(''), headers(), pieces(file, 5));
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.runId).toBe(first.body.runId);
    expect(first.body.runId).toMatch(/^mot-[0-9a-f]{32}$/);
  });

  it('413 for a chunked body past 32 MiB, and for a small gzip that inflates past it; nothing stored', async ({
    importUrl,
    headers,
    server,
    org,
  }) => {
    const row = Buffer.from('1,1,10,20,40,80,0.9,-1,-1,-1\n');
    const oneMiB = Buffer.concat(Array.from({ length: Math.ceil(MiB / row.length) }, () => row));
    const chunked = await send(
      importUrl('runId=too-big'),
      headers(),
      Array.from({ length: 34 }, () => oneMiB),
    );
    expect([chunked.status, chunked.body.code]).toEqual([413, 'payload_too_large']);
    const bomb = gzipSync(Buffer.concat(Array.from({ length: 40 }, () => oneMiB)));
    expect(bomb.length).toBeLessThan(2 * MiB);
    const inflated = await send(importUrl('runId=bomb'), headers({ 'content-encoding': 'gzip' }), [bomb], bomb.length);
    expect([inflated.status, inflated.body.code]).toEqual([413, 'payload_too_large']);
    const key = encodeURIComponent(org.recording.mediaKey);
    for (const runId of ['too-big', 'bomb']) {
      const res = await getJson(`${server.url}/detections/${runId}?mediaKey=${key}`, bearer(org.token));
      expect([runId, res.status]).toEqual([runId, 404]);
    }
  });

  it('400 malformed_body for a corrupt gzip body', async ({ importUrl, headers }) => {
    const good = gzipSync(motRows(5, 5));
    const flipped = Buffer.from(good);
    flipped[20] = flipped[20]! ^ 0xff;
    for (const body of [Buffer.from('not gzip at all'), flipped, good.subarray(0, good.length - 12)]) {
      const res = await send(importUrl('runId=corrupt'), headers({ 'content-encoding': 'gzip' }), [body], body.length);
      expect([res.status, res.body.code]).toEqual([400, 'malformed_body']);
    }
  });

  it('a file that fails in its first bytes is answered once the body is in: 400 invalid_file with its place', async ({
    importUrl,
    headers,
    server,
    org,
  }) => {
    // CVAT for images in its first element, then 2 MiB more that the reader is no longer given.
    const track =
      '<track id="0" label="car"><box frame="0" xtl="1" ytl="2" xbr="3" ybr="4" outside="0" occluded="0" keyframe="1"/></track>\n';
    const images = Buffer.from(
      `<?xml version="1.0"?>\n<annotations>\n<image id="0" name="a.jpg"/>\n${track.repeat(Math.ceil((2 * MiB) / track.length))}</annotations>\n`,
    );
    const cut = Buffer.from('<?xml version="1.0"?>\n<annotations><track id="0" label="car">');
    const cvat = (runId: string) => importUrl(`runId=${runId}`).replace('format=mot', 'format=cvat-video');
    const xml = headers({ 'content-type': 'application/xml' });
    const answers = [
      await send(cvat('bad-start'), xml, pieces(images, 4096)),
      await send(importUrl('runId=empty'), headers(), [], 0),
      await send(cvat('cut'), xml, [cut], cut.length),
    ];
    for (const res of answers) expect([res.status, res.body.code]).toEqual([400, 'invalid_file']);
    expect(answers[0]!.body.line).toBe(3);
    const key = encodeURIComponent(org.recording.mediaKey);
    for (const runId of ['bad-start', 'empty', 'cut']) {
      const res = await getJson(`${server.url}/detections/${runId}?mediaKey=${key}`, bearer(org.token));
      expect([runId, res.status]).toEqual([runId, 404]);
    }
  });
});
