// A 1 GiB object through GET /api/storage/signed from a server child process: its RSS stays flat, and a client
// that disconnects stops the read from disk. Plus signing-key rotation across server restarts on the same store.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { exited, spawnServer } from '../support/cli.js';
import { MASTER_KEY, SIGNING_KEY } from './helpers.js';

const GIB = 1 << 30;
const procNumber = (pid: number, file: 'status' | 'io', field: string) => {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(fs.readFileSync(`/proc/${pid}/${file}`, 'utf8'));
  return Number(m![1]) * (file === 'status' ? 1024 : 1);
};

describe.each(DIALECTS)('a 1 GiB object through a server process on %s', (dialect) => {
  let ts: TestStore;
  let server: Awaited<ReturnType<typeof spawnServer>>;
  let url: string;
  const env = {
    STORAGE_URL_SIGNING_KEY: SIGNING_KEY,
    SIGHTLINE_MASTER_KEY: MASTER_KEY,
    STORAGE_SEND_IDLE_TIMEOUT_MS: '1500',
  };

  beforeAll(async () => {
    ts = await createTestStore(dialect);
    const config = loadConfig({ data: ts.location.dataDir }, env);
    const root = path.join(ts.location.dataDir, 'big');
    fs.mkdirSync(path.join(root, 'alice'), { recursive: true });
    // Sparse: a real 1 GiB file for every reader, without 1 GiB of disk.
    fs.writeFileSync(path.join(root, 'alice', 'big.mp4'), '');
    fs.truncateSync(path.join(root, 'alice', 'big.mp4'), GIB);
    await createProvider(ts.store, config, null, { name: 'disk', type: 'fs', config: { root } });
    const account = await createAccount(ts.store, null, { name: 'streamer', defaultProvider: 'disk' });
    server = await spawnServer(ts.location, env);
    const res = await fetch(`${server.url}/api/storage`, {
      headers: {
        'x-service-storage-accesskey': account.accessKey,
        'x-service-storage-secretaccesskey': account.secretAccessKey,
        'x-service-storage-filename': 'alice/big.mp4',
        'x-service-storage-provider': 'disk',
      },
    });
    url = (await res.json()).data;
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server) await exited(server.child);
    await ts.destroy();
  });

  it('streams all of it with RSS growth under 64 MiB', async () => {
    const pid = server.child.pid!;
    // Warm the route (JIT, buffers) so the baseline is the steady state.
    await (await fetch(url, { headers: { range: 'bytes=0-1048575' } })).arrayBuffer();
    const baseline = procNumber(pid, 'status', 'VmRSS');
    let peak = baseline;
    let received = 0;
    let chunks = 0;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(GIB));
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (++chunks % 64 === 0) peak = Math.max(peak, procNumber(pid, 'status', 'VmRSS'));
    }
    peak = Math.max(peak, procNumber(pid, 'status', 'VmRSS'));
    expect(received).toBe(GIB);
    expect((peak - baseline) / 2 ** 20).toBeLessThan(64);
  });

  it('stops reading the file when the client disconnects', async () => {
    const pid = server.child.pid!;
    const before = procNumber(pid, 'io', 'rchar');
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal });
    const reader = res.body!.getReader();
    let received = 0;
    while (received < 8 * 2 ** 20) received += (await reader.read()).value!.byteLength;
    controller.abort();
    // Wait until the server's read counter settles; a server that kept reading would pass 1 GiB.
    let last = -1;
    let settled = 0;
    for (let i = 0; i < 100 && settled < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const now = procNumber(pid, 'io', 'rchar');
      settled = now === last ? settled + 1 : 0;
      last = now;
    }
    expect((last - before) / 2 ** 20).toBeLessThan(256);
    // And the server is fine afterwards.
    expect((await fetch(url, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
  });

  it('drops a client that stops reading, and closes the file', async () => {
    const pid = server.child.pid!;
    const openFiles = () =>
      fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith('big.mp4');
        } catch {
          return false;
        }
      }).length;
    const waitFor = async (condition: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !condition() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
      return condition();
    };
    // The previous tests' reads are over first, so the descriptor counted below is this request's.
    expect(await waitFor(() => openFiles() === 0, 10_000)).toBe(true);
    // One chunk, then nothing: the socket buffers fill, and the server can send no more. (The client never sees
    // the server's FIN either: it waits behind the unread bytes. What matters is what the server lets go.)
    const get = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get(url, resolve).on('error', reject);
      });
    // A connection reset while connecting (a loaded machine's full backlog) is not what is tested here: once more.
    const res = await get().catch(get);
    const answered = Date.now();
    res.once('data', () => res.pause());
    try {
      expect(await waitFor(() => openFiles() === 0, 10_000)).toBe(true);
      // Held while the client still took bytes, then let go once it took none for the idle timeout.
      expect(Date.now() - answered).toBeGreaterThanOrEqual(1000);
    } finally {
      res.socket.destroy();
    }
  });
});

describe.each(DIALECTS)('signing-key rotation on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  async function serve(keys: string) {
    const config = loadConfig(
      { data: ts.location.dataDir },
      { STORAGE_URL_SIGNING_KEY: keys, SIGHTLINE_MASTER_KEY: MASTER_KEY },
    );
    const app = await buildApp({ config, store: ts.store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, config };
  }

  it('verifies old URLs with a rotated-out key until that key is removed; new URLs use the first key', async () => {
    const OLD = 'old-signing-key-0123456789abcdef0123456789';
    const NEW = 'new-signing-key-fedcba9876543210fedcba9876';
    const first = await serve(OLD);
    const root = path.join(ts.location.dataDir, 'files');
    await createProvider(ts.store, first.config, null, { name: 'disk', type: 'fs', config: { root } });
    fs.mkdirSync(path.join(root, 'alice'), { recursive: true });
    fs.writeFileSync(path.join(root, 'alice', 'a.txt'), 'rotating');
    const account = await createAccount(ts.store, null, { name: `rot-${dialect}`, defaultProvider: 'disk' });
    const headers = {
      'x-service-storage-accesskey': account.accessKey,
      'x-service-storage-secretaccesskey': account.secretAccessKey,
      'x-service-storage-filename': 'alice/a.txt',
      'x-service-storage-provider': 'disk',
    };
    const oldUrl = new URL((await (await fetch(`${first.url}/api/storage`, { headers })).json()).data);
    await first.app.close();

    const both = await serve(`${NEW},${OLD}`);
    try {
      const onBoth = new URL(oldUrl.pathname + oldUrl.search, both.url);
      expect(await (await fetch(onBoth)).text()).toBe('rotating');
      const fresh = new URL((await (await fetch(`${both.url}/api/storage`, { headers })).json()).data);
      expect(fresh.searchParams.get('s')).not.toBe(oldUrl.searchParams.get('s'));
      expect((await fetch(fresh)).status).toBe(200);
    } finally {
      await both.app.close();
    }

    const onlyNew = await serve(NEW);
    try {
      const res = await fetch(new URL(oldUrl.pathname + oldUrl.search, onlyNew.url));
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('bad_signature');
    } finally {
      await onlyNew.app.close();
    }
  });
});
