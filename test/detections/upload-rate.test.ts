// A large body holding one of the two large-body turns must keep coming: a stalled one is answered 408
// request_timeout and its turn goes to the next, instead of both turns being held until the request timeout.
import net from 'node:net';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { loadConfig } from '../../src/config.js';
import { DIALECTS } from '../support/store.js';
import { bearer, postJson } from '../support/server.js';

const MiB = 1024 * 1024;

// 1 MiB/s over windows of 300 ms, so that a stall is found in well under a second.
const tests = serverTests({
  env: { LARGE_UPLOAD_MIN_BYTES_PER_SECOND: String(MiB), LARGE_UPLOAD_RATE_WINDOW_MS: '300' },
});

describe.each(DIALECTS)('the minimum upload rate of a large POST /detections on %s', (dialect) => {
  let n = 0;
  const it = tests[dialect]
    .extend('run', ({ org }) => (pad: number) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: `rate-${++n}` },
      tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
      pad: 'p'.repeat(pad),
    }))
    /** Sends the head and the first 9 MiB of a large body, then nothing; resolves with all the server answers. */
    .extend('stall', ({ server, org }) => (chunked: boolean) => {
      return new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          const piece = `{"pad":"${'x'.repeat(9 * MiB)}`;
          const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${20 * MiB}`;
          const head = `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
          socket.write(chunked ? `${head}${piece.length.toString(16)}\r\n${piece}\r\n` : head + piece);
        });
        socket.on('data', (c) => {
          answer += c;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    });

  function expect408(answer: string) {
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('content-type: application/problem+json');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; status: number };
    expect(body).toMatchObject({ code: 'request_timeout', status: 408 });
  }

  it('answers stalled bodies that hold both turns 408 and closes them; a waiting large run then gets its turn', async ({
    server,
    org,
    run,
    stall,
  }) => {
    const stalled = [stall(false), stall(true)];
    // Sent while both turns are held: it waits (not counted against its rate), then is stored.
    const waiting = postJson(`${server.url}/detections`, run(9 * MiB), bearer(org.token));
    const answers = await Promise.all(stalled);
    for (const answer of answers) expect408(answer);
    expect((await waiting).status).toBe(201);
  });

  it('counts a gzip body by its decoded bytes: small on the wire, past 8 MiB decoded it takes a turn and is rate-checked', async ({
    server,
    org,
    run,
  }) => {
    // 9 MiB of JSON in about 10 KB of gzip, then nothing more of the Content-Length promised.
    const coded = gzipSync(`{"pad":"${'x'.repeat(9 * MiB)}`);
    const stallCoded = () =>
      new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          socket.write(
            `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${coded.length + 1000}\r\n\r\n`,
          );
          socket.write(coded);
        });
        socket.on('data', (c) => {
          answer += c;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const stalled = [stallCoded(), stallCoded()];
    // Under 8 MiB decoded, a coded run needs no turn: it is stored while both are held.
    const small = await postJson(`${server.url}/detections`, run(0), bearer(org.token));
    expect(small.status).toBe(201);
    for (const answer of await Promise.all(stalled)) expect408(answer);
  });

  it('leaves no clock running on a request refused before its body: the process survives, the turns come back', async ({
    server,
    org,
    run,
  }) => {
    // Refused from the header (413: over 32 MiB) and by its type (415) after taking a turn; both clients then stall.
    const refused = async (length: number, type: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          socket.write(
            `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n{`,
          );
        });
        socket.on('data', (c) => {
          answer += c;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    expect(await refused(32 * MiB + 1, 'application/json')).toMatch(/^HTTP\/1\.1 413 /);
    expect(await refused(20 * MiB, 'text/plain')).toMatch(/^HTTP\/1\.1 415 /);
    // Three windows of the rate clock: a clock left running would fail a stream nobody listens to, and crash.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < 3; i++)
      expect((await postJson(`${server.url}/detections`, run(9 * MiB), bearer(org.token))).status).toBe(201);
  });

  it('gives the turn back when a client drops a long streamed answer half-way', async ({ server, org, run }) => {
    // 400 000 rejected boxes (a 24 MB streamed 207) in a body over 8 MiB; the client reads 100 KB and leaves.
    const body = JSON.stringify({
      ...run(4 * MiB),
      tracks: [
        { id: 'ok', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] },
        ...[0, 1, 2, 3].map((t) => ({ id: `bad${t}`, boxes: Array.from({ length: 100_000 }, () => ({ frame: -1 })) })),
      ],
    });
    const dropHalfWay = () =>
      new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          socket.write(
            `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          );
          socket.write(body);
        });
        socket.on('data', (c) => {
          answer += c;
          if (answer.length > 100_000) {
            socket.destroy();
            resolve(answer.slice(0, 12));
          }
        });
        socket.on('close', () => resolve(answer.slice(0, 12)));
        socket.on('error', reject);
      });
    expect(await Promise.all([dropHalfWay(), dropHalfWay()])).toEqual(['HTTP/1.1 207', 'HTTP/1.1 207']);
    // Both turns were held by the dropped answers: a leaked turn would keep this waiting until the request timeout.
    expect((await postJson(`${server.url}/detections`, run(9 * MiB), bearer(org.token))).status).toBe(201);
    expect((await postJson(`${server.url}/detections`, run(9 * MiB), bearer(org.token))).status).toBe(201);
  });

  it('lets a large body through that arrives steadily above the rate', async ({ server, org, run }) => {
    const body = Buffer.from(JSON.stringify(run(12 * MiB)));
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/detections`,
        {
          method: 'POST',
          headers: bearer(org.token, { 'content-type': 'application/json', 'content-length': String(body.length) }),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      // 1 MiB every 50 ms: about 20 MiB/s, twenty times the minimum, in about 0.6 s.
      let at = 0;
      const next = () => {
        const from = at;
        at += MiB;
        req.write(body.subarray(from, at));
        if (at >= body.length) req.end();
        else setTimeout(next, 50);
      };
      next();
    });
    expect(status).toBe(201);
  });
});

describe('the minimum upload rate settings', () => {
  it('default to 100 KiB/s over 10 s, take 0 to turn the check off, and refuse a window under 100 ms', () => {
    expect(loadConfig({}, {}).largeUploadMinimumRate).toEqual({ bytesPerSecond: 102_400, windowMs: 10_000 });
    expect(loadConfig({}, { LARGE_UPLOAD_MIN_BYTES_PER_SECOND: '0' }).largeUploadMinimumRate.bytesPerSecond).toBe(0);
    expect(() => loadConfig({}, { LARGE_UPLOAD_RATE_WINDOW_MS: '50' })).toThrow(/LARGE_UPLOAD_RATE_WINDOW_MS/);
    expect(() => loadConfig({}, { LARGE_UPLOAD_MIN_BYTES_PER_SECOND: 'fast' })).toThrow(
      /LARGE_UPLOAD_MIN_BYTES_PER_SECOND/,
    );
  });
});
