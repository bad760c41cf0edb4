// The byte budget for run bodies in flight: a body that finds no room within BODY_BUDGET_WAIT_MS is answered 503
// service_unavailable with Retry-After before it is read, and the budget comes back once the holder is answered.
import net from 'node:net';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, postJson } from '../support/server.js';

const MiB = 1024 * 1024;
const tests = serverTests({ env: { BODY_MEMORY_BUDGET_BYTES: String(MiB), BODY_BUDGET_WAIT_MS: '300' } });

describe.each(DIALECTS)('the body budget on %s', (dialect) => {
  tests[dialect](
    'answers 503 with Retry-After when the budget stays full, and serves again once it frees',
    async ({ server, org }) => {
      const run = (runId: string) => ({
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId },
        tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
      });
      // A body announced as the whole budget, of which only a little comes: it holds all of the budget.
      let answer = '';
      const holder = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
        holder.write(
          `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\nContent-Length: ${MiB}\r\n\r\n{"pad":"`,
        );
      });
      holder.on('data', (c) => (answer += c));
      holder.on('error', () => {});
      try {
        // The holder's reservation is made as soon as its head arrives; poll until a post is refused, no fixed sleep.
        let refused: Awaited<ReturnType<typeof postJson>> | undefined;
        for (let i = 0; i < 50 && !refused; i++) {
          const res = await postJson(`${server.url}/detections`, run(`waits-${i}`), bearer(org.token));
          if (res.status === 503) refused = res;
          else expect(res.status).toBe(201);
        }
        expect(refused?.status).toBe(503);
        expect(refused?.body.code).toBe('service_unavailable');
        expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        holder.destroy();
      }
      expect(answer).toBe('');
      // The holder went away: its reservation went back with it.
      const after = await postJson(`${server.url}/detections`, run('after'), bearer(org.token));
      expect(after.status).toBe(201);
    },
  );
});
