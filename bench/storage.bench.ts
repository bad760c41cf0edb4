// Storage: URL issuance throughput against a bare Fastify route answering a constant of the
// same size (autocannon, 32 connections, 10 s), 1000-element bulk latency, and streaming a 1 GiB file through a
// service-signed URL against nginx serving the same file. The servers under test run as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { createAccount, createProvider } from '../src/storage/admin.js';
import { freePort, spawnServer } from '../test/support/cli.js';
import { fmt, median, timeIt, type Row, type Suite } from './harness.js';
import { loadAgainst, request, type Comparison } from './http-client.js';
import { startBareServer, startBenchServer, stop } from './processes.js';

const GIB = 1 << 30;
const ENV = {
  STORAGE_URL_SIGNING_KEY: 'bench-signing-key-0123456789abcdef0123',
  SIGHTLINE_MASTER_KEY: 'bench-master-key-0123456789',
};

/** GET a URL and discard the body; resolves with the byte count. */
function drain(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
        });
        res.on('end', () => resolve(n));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function startNginx(root: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => fs.existsSync(p));
  if (!found)
    throw new Error(
      'the storage benchmark compares with nginx: install the Debian package first (apt-get install -y nginx-light)',
    );
  const child = spawn('nginx', ['-e', `${dir}/error.log`, '-p', dir, '-c', conf, '-g', 'daemon off;'], {
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await drain(`${url}/`);
      return { child, url };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('nginx did not start');
}

function throughputRow(operation: string, { service, floor, ratio }: Comparison, target: string): Row {
  return {
    operation,
    'req/s': fmt(service.rps, 0),
    'bare req/s': fmt(floor.rps, 0),
    ratio: `${ratio.toFixed(2)}×`,
    target,
    'p50 ms': fmt(service.p50, 1),
    errors: service.errors + service.non2xx,
  };
}

export const suite: Suite = {
  name: 'storage',
  title: 'Storage',
  baseline:
    'Embedded SQLite; the servers under test (the built `sightline serve`, native and `STORAGE_SIGNING=true`) run as ' +
    'child processes. Throughput ratios (autocannon, 32 connections, five alternating rounds of 2 s) are against a ' +
    'bare Fastify child answering a constant body of the same length (`bare req/s`); `ceiling` rows are the least ' +
    'any implementation can do (`bench/least-storage-server.ts`) against the same bare route. The 1 GiB stream and ' +
    'the Range latency are against nginx (Debian `nginx-light`, sendfile) serving the same file on loopback.',
  async run(): Promise<Row[]> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-storage-'));
    const config = loadConfig({ data: dataDir }, ENV);
    const store = openStore({ dataDir });
    await migrateToLatest(store);
    const root = path.join(dataDir, 'files');
    fs.mkdirSync(path.join(root, 'cam'), { recursive: true });
    const bigFile = path.join(root, 'cam', 'big.mp4');
    // 1 GiB of real (non-sparse) bytes, so both servers read the disk the same way.
    const chunk = Buffer.alloc(8 << 20, 0x5a);
    const fd = fs.openSync(bigFile, 'w');
    for (let i = 0; i < GIB / chunk.length; i++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    // nginx's workers drop to an unprivileged user when started as root: let them read the file.
    for (const dir of [dataDir, root, path.join(root, 'cam')]) fs.chmodSync(dir, 0o755);
    fs.chmodSync(bigFile, 0o644);
    await createProvider(store, config, null, { name: 'disk', type: 'fs', config: { root } });
    await createProvider(store, config, null, {
      name: 's3',
      type: 's3',
      config: {
        bucket: 'bench-bucket',
        region: 'eu-west-1',
        accessKeyId: 'AKIABENCH',
        secretAccessKey: 'bench-secret',
      },
    });
    const account = await createAccount(store, null, { name: 'bench', defaultProvider: 's3', providers: ['disk'] });
    await store.close();
    const auth = {
      'x-service-storage-accesskey': account.accessKey,
      'x-service-storage-secretaccesskey': account.secretAccessKey,
    };
    const single = {
      ...auth,
      'x-service-storage-filename': 'cam/1700000000_cam1.mp4',
      'x-service-storage-provider': 's3',
      'x-service-storage-uriexpirytime': '1h',
    };
    const base = 'cam/1700000000_cam1';
    const bulk4 = JSON.stringify(
      [`${base}.mp4`, `${base}_thumbnail.jpg`, `${base}_sprite.jpg`, `${base}_redacted.mp4`].map((filename) => ({
        filename,
      })),
    );
    const bulk1000 = Buffer.from(
      JSON.stringify(
        Array.from({ length: 1000 }, (_, i) => ({
          filename: `cam/1700000000_cam${i}_thumbnail.jpg`,
          uriExpiryTime: '1h',
        })),
      ),
    );

    const location = { dataDir };
    const native = await spawnServer(location, ENV);
    const signing = await spawnServer(location, {
      ...ENV,
      STORAGE_SIGNING: 'true',
      STORAGE_PUBLIC_URL: 'https://media.example.com',
    });
    const rows: Row[] = [];
    // The ceiling of the URL routes' ratios on this machine: the least any implementation can do per request.
    const least = await startBenchServer('least-storage-server.ts', [
      account.accessKey,
      account.secretAccessKey,
      'bench-bucket',
      'eu-west-1',
      'AKIABENCH',
      'bench-secret',
    ]);
    try {
      // Each comparison: the bare route answers a constant exactly as long as the real answer; `leastPath`, the same
      // comparison for the least possible implementation of the route.
      const compare = async (
        operation: string,
        url: string,
        method: 'GET' | 'POST',
        headers: Record<string, string>,
        body: string | undefined,
        target: string,
        leastPath?: string,
      ) => {
        const sample = await request(url, method, headers, body ? Buffer.from(body) : undefined);
        if (sample.status !== 200) throw new Error(`${operation}: ${sample.status} ${sample.text}`);
        const bare = await startBareServer(sample.text!);
        try {
          const options = { method, headers, body, connections: 32 };
          const compared = await loadAgainst({ url, options }, { url: `${bare.url}/constant`, options });
          rows.push(throughputRow(operation, compared, target));
          if (leastPath) {
            const leastSample = await request(
              `${least.url}${leastPath}`,
              method,
              headers,
              body ? Buffer.from(body) : undefined,
              true,
            );
            if (leastSample.status !== 200 || leastSample.bytes !== sample.bytes)
              throw new Error(
                `${leastPath}: ${leastSample.status}, ${leastSample.bytes} bytes against ${sample.bytes}`,
              );
            const ceiling = await loadAgainst(
              { url: `${least.url}${leastPath}`, options },
              { url: `${bare.url}/constant`, options },
            );
            rows.push(throughputRow(`ceiling: the same, least possible (bench/least-storage-server.ts)`, ceiling, ''));
          }
        } finally {
          await stop(bare.child);
        }
      };
      // Context: the shared app's own floor (request id, logger, global hooks, one `select 1`) on the same server.
      await compare('context: GET /api/health of the same app', `${native.url}/api/health`, 'GET', {}, undefined, '');
      await compare(
        'GET /api/storage, s3 (SigV4)',
        `${native.url}/api/storage`,
        'GET',
        single,
        undefined,
        '≥ 0.7×',
        '/api/storage',
      );
      await compare(
        'GET /api/storage, STORAGE_SIGNING=true',
        `${signing.url}/api/storage`,
        'GET',
        single,
        undefined,
        '≥ 0.7×',
      );
      const json = { ...auth, 'content-type': 'application/json' };
      await compare(
        'POST /api/storage/bulk, 4 assets (s3)',
        `${native.url}/api/storage/bulk`,
        'POST',
        json,
        bulk4,
        '≥ 0.6×',
        '/api/storage/bulk',
      );

      for (const [mode, server] of [
        ['s3', native],
        ['STORAGE_SIGNING=true', signing],
      ] as const) {
        const once = () => request(`${server.url}/api/storage/bulk`, 'POST', json, bulk1000);
        for (let i = 0; i < 20; i++) await once();
        const ms: number[] = [];
        for (let i = 0; i < 100; i++) ms.push(await timeIt(once));
        rows.push({
          operation: `POST /api/storage/bulk, 1000 elements, ${mode}`,
          'median ms': fmt(median(ms), 2),
          target: '< 20 ms',
        });
      }

      // 1 GiB from fs through the service vs nginx serving the same file from disk.
      const signedUrl: string = JSON.parse(
        (
          await request(
            `${native.url}/api/storage`,
            'GET',
            { ...single, 'x-service-storage-filename': 'cam/big.mp4', 'x-service-storage-provider': 'disk' },
            undefined,
            true,
          )
        ).text!,
      ).data;
      const nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-nginx-'));
      const nginx = await startNginx(root, nginxDir);
      try {
        // One full download of each in turn, three rounds after a warm-up of each: a noisy neighbour hits both alike.
        const once = async (url: string) => {
          let bytes = 0;
          const ms = await timeIt(async () => {
            bytes = await drain(url);
          });
          if (bytes !== GIB) throw new Error(`${url}: got ${bytes} bytes`);
          return 1024 / (ms / 1000);
        };
        const nginxUrl = `${nginx.url}/cam/big.mp4`;
        await drain(signedUrl);
        await drain(nginxUrl);
        const rounds: Array<{ ours: number; theirs: number }> = [];
        for (let i = 0; i < 3; i++) rounds.push({ ours: await once(signedUrl), theirs: await once(nginxUrl) });
        const ours = median(rounds.map((r) => r.ours));
        const theirs = median(rounds.map((r) => r.theirs));
        const streamRatio = median(rounds.map((r) => r.ours / r.theirs));
        rows.push({
          operation: 'GET /api/storage/signed, 1 GiB from fs',
          'MiB/s': fmt(ours, 0),
          'nginx MiB/s': fmt(theirs, 0),
          ratio: `${streamRatio.toFixed(2)}×`,
          target: '≥ 0.5×',
        });
        const ranged = async (url: string) => {
          const ms: number[] = [];
          for (let i = 0; i < 220; i++) {
            const start = Math.floor(Math.random() * (GIB - 65536));
            const t = await timeIt(() => drain(url, { range: `bytes=${start}-${start + 65535}` }));
            if (i >= 20) ms.push(t);
          }
          return median(ms);
        };
        const ourRange = await ranged(signedUrl);
        const nginxRange = await ranged(`${nginx.url}/cam/big.mp4`);
        rows.push({
          operation: 'GET /api/storage/signed, Range 64 KiB at random',
          'median ms': fmt(ourRange, 2),
          'nginx median ms': fmt(nginxRange, 2),
        });
      } finally {
        await stop(nginx.child);
        fs.rmSync(nginxDir, { recursive: true, force: true });
      }
    } finally {
      await stop(least.child);
      await stop(native.child);
      await stop(signing.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};
