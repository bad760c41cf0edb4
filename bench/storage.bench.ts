// Storage: URL issuance (single, bulk) and streaming through a service-signed URL, on the embedded store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrganisation } from '../src/auth/queries.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { buildApp } from '../src/http/app.js';
import { createAccount, createProvider } from '../src/storage/admin.js';
import { fmt, median, percentile, timeIt, type Row, type Suite } from './harness.js';

async function sample(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timeIt(fn));
  return out;
}

export const suite: Suite = {
  name: 'storage',
  async run(): Promise<Row[]> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-storage-'));
    const config = loadConfig({ data: dataDir }, { STORAGE_URL_SIGNING_KEY: 'bench-key-0123456789abcdef', SIGHTLINE_MASTER_KEY: 'bench-master' });
    const store = openStore({ dataDir });
    await migrateToLatest(store);
    const org = await createOrganisation(store.db, 'bench');
    const root = path.join(dataDir, 'files');
    await createProvider(store, config, org.id, { name: 'disk', type: 'fs', config: { root } });
    await createProvider(store, config, org.id, { name: 's3', type: 's3', config: { bucket: 'bench-bucket', accessKeyId: 'AK', secretAccessKey: 'SK' } });
    const account = await createAccount(store, org.id, { name: 'bench', defaultProvider: 'disk', providers: ['s3'] });
    fs.mkdirSync(path.join(root, 'a'), { recursive: true });
    const big = Buffer.alloc(64 * 1024 * 1024, 1);
    fs.writeFileSync(path.join(root, 'a', 'big.mp4'), big);
    const app = await buildApp({ config, store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const auth = { 'x-service-storage-accesskey': account.accessKey, 'x-service-storage-secretaccesskey': account.secretAccessKey };
    const rows: Row[] = [];
    const record = (operation: string, ms: number[], extra: Row = {}) =>
      rows.push({ operation, 'median ms': fmt(median(ms), 2), 'p95 ms': fmt(percentile(ms, 95), 2), ...extra });

    const single = (provider: string) => () => fetch(`${url}/api/storage`, { headers: { ...auth, 'x-service-storage-filename': 'a/x.mp4', 'x-service-storage-provider': provider } }).then((r) => r.text());
    record('GET /api/storage (fs → service-signed)', await sample(500, single('disk')));
    record('GET /api/storage (s3 → SigV4)', await sample(500, single('s3')));
    for (const n of [4, 100, 1000]) {
      const body = JSON.stringify(Array.from({ length: n }, (_, i) => ({ filename: `a/${i}.jpg`, provider: i % 2 ? 's3' : 'disk' })));
      const ms = await sample(n === 1000 ? 50 : 200, () => fetch(`${url}/api/storage/bulk`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }).then((r) => r.text()));
      record(`POST /api/storage/bulk, ${n} files`, ms, { 'per file µs': fmt((median(ms) * 1000) / n, 1) });
    }
    const signed = JSON.parse(await (await fetch(`${url}/api/storage`, { headers: { ...auth, 'x-service-storage-filename': 'a/big.mp4', 'x-service-storage-provider': 'disk' } })).text()).data;
    const validate = signed.replace('/signed?', '/signed/validate?');
    record('GET /api/storage/signed/validate', await sample(500, () => fetch(validate).then((r) => r.text())));
    record('GET /api/storage/signed, Range 1 MiB', await sample(200, () => fetch(signed, { headers: { range: 'bytes=0-1048575' } }).then((r) => r.arrayBuffer())));
    const rssBefore = process.memoryUsage().rss;
    const full = await sample(5, async () => {
      const res = await fetch(signed);
      const reader = res.body!.getReader();
      while (!(await reader.read()).done) { /* drain */ }
    });
    record('GET /api/storage/signed, 64 MiB stream', full, { 'MiB/s': fmt(64 / (median(full) / 1000), 0), 'RSS growth MiB': fmt((process.memoryUsage().rss - rssBefore) / 2 ** 20, 0) });
    await app.close();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    return rows;
  },
};
