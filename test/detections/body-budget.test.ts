// Memory for request bodies in flight: a process-wide byte budget for bodies being read and parsed (beyond it a body
// waits, then gets 503 with Retry-After), and large-body turns that one organisation cannot hold all of. Against a
// spawned server, whose peak resident memory is read from /proc.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, spawnServer } from '../support/cli.js';
import { seedOrg, type SeededOrg } from '../support/server.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';

const MiB = 1024 * 1024;

/** Peak resident set of a process (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)![1]) / 1024;
}

/** A run whose unknown member is `size` bytes of `{}` elements: each parses into an object of its own. */
function emptyObjectsBody(org: SeededOrg, runId: string, size: number): Buffer {
  const head = `{"mediaKey":${JSON.stringify(org.recording.mediaKey)},"schemaVersion":"1.0","coordinateSpace":"normalized","source":{"runId":"${runId}"},"tracks":[{"id":"t","boxes":[{"frame":0,"x":0.1,"y":0.1,"w":0.2,"h":0.2}]}],"pad":[`;
  const count = Math.floor((size - head.length - 2) / 3);
  return Buffer.from(`${head}${'{},'.repeat(count)}{}]}`);
}

function post(url: string, token: string, body: Buffer) {
  return new Promise<{ status: number; retryAfter: string | undefined; code?: string }>((resolve, reject) => {
    const req = http.request(
      `${url}/detections`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'],
            code: text.startsWith('{') ? (JSON.parse(text) as { code?: string }).code : undefined,
          }),
        );
      },
    );
    // A server that answers 503 before reading may close while the body is still being sent: the answer counts.
    req.on('error', reject);
    req.end(body);
  });
}

/** The head and the first `sent` bytes of a body of `length` bytes, then nothing: an upload that holds its turn. */
function stalledUpload(url: string, token: string, length: number, sent: number) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => {
    socket.write(
      `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"pad":"${'x'.repeat(sent)}`,
    );
  });
  socket.on('error', () => {});
  return socket;
}

describe.each(DIALECTS)('the memory of bodies in flight on %s', (dialect) => {
  let testStore: TestStore;
  let server: Awaited<ReturnType<typeof spawnServer>>;
  let org: SeededOrg;
  let other: SeededOrg;
  beforeAll(async () => {
    testStore = await createTestStore(dialect);
    [org, other] = [await seedOrg(testStore.store), await seedOrg(testStore.store)];
    // No minimum rate: the stalled uploads below hold their turns as long as the test wants.
    server = await spawnServer(testStore.location, { LARGE_UPLOAD_MIN_BYTES_PER_SECOND: '0' });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server) await exited(server.child);
    await testStore?.destroy();
  });

  it('answers 16 concurrent 7.7 MiB bodies of {} (201, or 503 with Retry-After) with peak RSS under 800 MiB', async () => {
    const bodies = Array.from({ length: 16 }, (_, i) => emptyObjectsBody(org, `budget-${i}`, 7.7 * MiB));
    const answers = await Promise.all(bodies.map((body) => post(server.url, org.token, body)));
    const peak = peakRssMiB(server.child.pid!);
    for (const answer of answers) {
      expect([201, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.code).toBe('service_unavailable');
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
    }
    expect(answers.some((a) => a.status === 201)).toBe(true);
    expect(peak).toBeLessThan(800);
  });

  it("gives another organisation a large-body turn while one organisation's two uploads stall", async () => {
    const stalled = [0, 1].map(() => stalledUpload(server.url, org.token, 20 * MiB, 9 * MiB));
    try {
      // Both stalled bodies have passed 8 MiB, so each holds or waits for a turn before this one is sent.
      await new Promise((r) => setTimeout(r, 500));
      const body = emptyObjectsBody(other, 'fair-turn', 9 * MiB);
      const started = Date.now();
      const answer = await Promise.race([
        post(server.url, other.token, body),
        new Promise<never>((_r, reject) => setTimeout(() => reject(new Error('no turn within 20 s')), 20_000)),
      ]);
      expect(answer.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });
});
