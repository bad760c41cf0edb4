import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createUser } from '../../src/auth/queries.js';
import { createTestStore, type TestStore } from '../support/store.js';
import { bearer, postJson, seedOrg } from '../support/server.js';
import { exited, spawnServer } from '../support/cli.js';
import { rawExchange } from '../support/raw-http.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { MASTER_KEY, SIGNING_KEY } from '../storage/helpers.js';

describe('request logs', () => {
  let ts: TestStore;
  let url: string;
  let close: () => Promise<void>;
  const lines: string[] = [];

  beforeAll(async () => {
    ts = await createTestStore('sqlite');
    const stream = new PassThrough();
    stream.on('data', (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean)));
    const app = await buildApp({
      config: loadConfig({ data: ts.location.dataDir }, { LOG_LEVEL: 'info' }),
      store: ts.store,
      logStream: stream,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    close = async () => {
      await app.close();
      await ts.destroy();
    };
  });
  afterAll(async () => {
    await close();
  });

  it('writes one access line per request with the request id, and never a secret', async () => {
    const org = await seedOrg(ts.store);
    await createUser(ts.store.db, org.orgId, 'logger-user', 'hunter2-but-longer', 'editor');
    const login = await postJson(`${url}/login`, { username: 'logger-user', password: 'hunter2-but-longer' });
    const session = login.body.data.token as string;
    const secretHeader = 'storage-secret-value-that-must-not-leak';
    await fetch(`${url}/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`, {
      headers: { ...bearer(session), 'x-request-id': 'trace-me-1' },
    });
    await fetch(`${url}/api/storage`, {
      headers: {
        'x-service-storage-accesskey': 'AK',
        'x-service-storage-secretaccesskey': secretHeader,
        'x-service-storage-filename': 'a/b.mp4',
        'x-service-storage-provider': 'p',
      },
    });
    await fetch(`${url}/api/storage/signed?a=acct&p=prov&f=a%2Fb.mp4&e=1&s=signed-url-token-secret`);
    await postJson(`${url}/login`, { username: 'logger-user', password: 'wrong-password-secret' });
    await new Promise((resolve) => setImmediate(resolve));
    const access = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(access.length).toBeGreaterThanOrEqual(5);
    expect(access.find((l) => l.reqId === 'trace-me-1')).toMatchObject({ method: 'GET', status: 200 });
    const all = lines.join('\n');
    for (const secret of [
      session,
      org.token,
      'hunter2-but-longer',
      'wrong-password-secret',
      secretHeader,
      'signed-url-token-secret',
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain('s=[redacted]');
  });

  it('an early answer to a client that closes on our FIN is one access line, not also a 400 for the cut body', async () => {
    lines.length = 0;
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      // allowHalfOpen false (the default): the client closes its side as soon as the server's FIN arrives.
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => {
        socket.write(
          'POST /detections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\nX-Request-Id: early-fin\r\n\r\n',
        );
      });
      socket.on('data', (c) => {
        text += c;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    await new Promise((resolve) => setImmediate(resolve));
    const access = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ reqId: 'early-fin', status: 401 });
  });

  it("cuts credentials a client put in a query under any credential's name, and keeps the rest", async () => {
    lines.length = 0;
    await fetch(
      `${url}/detections?mediaKey=k1.mp4&access_token=sla_leaky&password=hunter3&api-key=k3y&X-Amz-Security-Token=tok&sessionId=sess&e=5`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request')!.url as string;
    expect(logged).toBe(
      '/detections?mediaKey=k1.mp4&access_token=[redacted]&password=[redacted]&api-key=[redacted]&X-Amz-Security-Token=[redacted]&sessionId=[redacted]&e=5',
    );
  });

  it('also cuts pass, key, jwt and bearer', async () => {
    lines.length = 0;
    await fetch(`${url}/detections?mediaKey=k1.mp4&pass=p4ss&key=k3y&jwt=j.w.t&Bearer=b3&e=5`);
    await new Promise((resolve) => setImmediate(resolve));
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request')!.url as string;
    expect(logged).toBe(
      '/detections?mediaKey=k1.mp4&pass=[redacted]&key=[redacted]&jwt=[redacted]&Bearer=[redacted]&e=5',
    );
  });

  it("writes one line for a refused request: the access line, with the client's address and the problem's code", async () => {
    lines.length = 0;
    await fetch(`${url}/detections?mediaKey=k.mp4`, { headers: { 'x-request-id': 'refused-1' } });
    await fetch(`${url}/no/such/route`, { headers: { 'x-request-id': 'refused-2' } });
    await new Promise((resolve) => setImmediate(resolve));
    const mine = (id: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === id);
    expect(mine('refused-1')).toHaveLength(1);
    expect(mine('refused-1')[0]).toMatchObject({
      msg: 'request',
      status: 401,
      code: 'unauthorized',
      ip: '127.0.0.1',
      method: 'GET',
    });
    expect(mine('refused-2')).toHaveLength(1);
    expect(mine('refused-2')[0]).toMatchObject({
      msg: 'request',
      status: 404,
      code: 'route_not_found',
      ip: '127.0.0.1',
    });
  });

  it('logs what only the HTTP parser saw: a request it refused, and a path Fastify could not decode', async () => {
    lines.length = 0;
    const raw = (text: string) => rawExchange(url, text);
    expect(
      await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: parser-refused\r\nX-Bad: a\u0001b\r\n\r\n'),
    ).toMatch(/^HTTP\/1\.1 400/);
    expect(
      await raw('GET /detections/%ZZ HTTP/1.1\r\nHost: x\r\nX-Request-Id: bad-path\r\nConnection: close\r\n\r\n'),
    ).toMatch(/^HTTP\/1\.1 400/);
    const mine = (id: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === id);
    for (let i = 0; i < 100 && mine('bad-path').length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mine('parser-refused')).toEqual([
      expect.objectContaining({
        msg: 'request',
        status: 400,
        code: 'bad_request',
        parserError: 'HPE_INVALID_HEADER_TOKEN',
        remoteAddress: '127.0.0.1',
      }),
    ]);
    expect(mine('bad-path')).toEqual([
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        url: '/detections/%ZZ',
        status: 400,
        code: 'bad_request',
      }),
    ]);
  });

  it('gives a request that sent two ids one of its own, not the two joined', async () => {
    const answer = await rawExchange(
      url,
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: dupA\r\nX-Request-Id: dupB\r\nConnection: close\r\n\r\n',
    );
    const id = /\r\nx-request-id: ([^\r]*)\r\n/i.exec(answer)?.[1];
    expect(id).toBeDefined();
    expect(id).not.toContain('dupA');
    expect(id).not.toContain('dupB');
  });

  it('logs a client that leaves in the middle of its upload as a refused request, not as a database outage', async () => {
    const org = await seedOrg(ts.store);
    lines.length = 0;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => {
        socket.write(
          `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\n` +
            'Content-Length: 5000\r\nX-Request-Id: left-mid-body\r\n\r\n{"mediaKey":"',
          () =>
            setImmediate(() => {
              socket.destroy();
              resolve();
            }),
        );
      });
      socket.on('error', reject);
    });
    const mine = () => lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'left-mid-body');
    for (let i = 0; i < 200 && mine().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mine().length).toBeGreaterThan(0);
    for (const line of mine()) {
      expect(line.level, JSON.stringify(line)).toBeLessThan(50);
      expect(line.code).not.toBe('service_unavailable');
    }
  });
});

/** A server whose log lines the test reads. */
async function loggedServer(config: ReturnType<typeof loadConfig>, ts: TestStore) {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean)));
  const app = await buildApp({ config, store: ts.store, logStream: stream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, lines, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

async function signedUrl(
  base: string,
  account: { accessKey: string; secretAccessKey: string },
  filename: string,
  provider: string,
): Promise<string> {
  const res = await fetch(`${base}/api/storage`, {
    headers: {
      'x-service-storage-accesskey': account.accessKey,
      'x-service-storage-secretaccesskey': account.secretAccessKey,
      'x-service-storage-filename': filename,
      'x-service-storage-provider': provider,
    },
  });
  return (await res.json()).data as string;
}

describe('a signed download that ends early', () => {
  it('still has a log line with its request id (no access line is written for it)', async () => {
    const ts = await createTestStore('sqlite');
    const env = { LOG_LEVEL: 'info', STORAGE_URL_SIGNING_KEY: SIGNING_KEY, SIGHTLINE_MASTER_KEY: MASTER_KEY };
    const config = loadConfig({ data: ts.location.dataDir }, env);
    const root = path.join(ts.location.dataDir, 'files');
    fs.mkdirSync(path.join(root, 'alice'), { recursive: true });
    fs.writeFileSync(path.join(root, 'alice', 'big.mp4'), '');
    fs.truncateSync(path.join(root, 'alice', 'big.mp4'), 256 << 20);
    await createProvider(ts.store, config, null, { name: 'disk', type: 'fs', config: { root } });
    const account = await createAccount(ts.store, null, { name: 'cut', defaultProvider: 'disk' });
    const { app, base, lines } = await loggedServer(config, ts);
    try {
      const signed = await signedUrl(base, account, 'alice/big.mp4', 'disk');
      // Take the first bytes, then go away.
      await new Promise<void>((resolve, reject) => {
        const req = http.get(signed, { headers: { 'x-request-id': 'cut-short-1' } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => {
          if (!req.destroyed) reject(err);
        });
      });
      const found = () => lines.map((l) => JSON.parse(l)).find((l) => l.reqId === 'cut-short-1');
      for (let i = 0; i < 200 && !found(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(found()).toMatchObject({
        status: 200,
        provider: 'disk',
        msg: expect.stringContaining('signed download cut short: the client went away'),
      });
      expect(lines.join('\n')).not.toContain(new URL(signed).searchParams.get('s')!);
    } finally {
      await app.close();
      await ts.destroy();
    }
  });
});

describe('a signed download whose client leaves while the provider is still to answer', () => {
  it('is one info line without a status, not a server error', async () => {
    // A provider endpoint that accepts the connection and never answers.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const reached = new Promise<void>((resolve) => silent.once('connection', () => resolve()));
    const ts = await createTestStore('sqlite');
    const env = {
      LOG_LEVEL: 'info',
      STORAGE_SIGNING: 'true',
      STORAGE_URL_SIGNING_KEY: SIGNING_KEY,
      SIGHTLINE_MASTER_KEY: MASTER_KEY,
    };
    const config = loadConfig({ data: ts.location.dataDir }, env);
    await createProvider(ts.store, config, null, {
      name: 'hole',
      type: 's3',
      config: {
        bucket: 'media',
        endpoint: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
        pathStyle: true,
        accessKeyId: 'AKIDHOLE',
        secretAccessKey: 'hole-secret-value',
      },
    });
    const account = await createAccount(ts.store, null, { name: 'gone', defaultProvider: 'hole' });
    const { app, base, lines } = await loggedServer(config, ts);
    try {
      const signed = await signedUrl(base, account, 'alice/x.mp4', 'hole');
      const req = http.get(signed, { headers: { 'x-request-id': 'left-before-provider' } });
      req.on('error', () => {});
      // Leave once the server is waiting on the provider.
      await reached;
      req.destroy();
      const mine = () => lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'left-before-provider');
      for (let i = 0; i < 200 && mine().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      // A failing handler would log right after the abort: a later request's access line comes after it.
      await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'after-it' } });
      for (let i = 0; i < 200 && !lines.some((l) => l.includes('"reqId":"after-it"')); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(mine()).toHaveLength(1);
      expect(mine()[0]).toMatchObject({
        level: 30,
        provider: 'hole',
        msg: 'signed download cut short: the client went away',
      });
      expect(mine()[0]).not.toHaveProperty('status');
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
      await ts.destroy();
    }
  });
});

describe('a provider that fails', () => {
  it("logs why (the connection's error), never the presigned URL's signature; the client sees only the problem", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const ts = await createTestStore('sqlite');
    const env = {
      LOG_LEVEL: 'info',
      STORAGE_SIGNING: 'true',
      STORAGE_URL_SIGNING_KEY: SIGNING_KEY,
      SIGHTLINE_MASTER_KEY: MASTER_KEY,
    };
    const config = loadConfig({ data: ts.location.dataDir }, env);
    await createProvider(ts.store, config, null, {
      name: 'down',
      type: 's3',
      config: {
        bucket: 'media',
        endpoint: `http://127.0.0.1:${port}`,
        pathStyle: true,
        accessKeyId: 'AKIDDOWN',
        secretAccessKey: 'down-secret-value',
      },
    });
    const account = await createAccount(ts.store, null, { name: 'downer', defaultProvider: 'down' });
    const { app, base, lines } = await loggedServer(config, ts);
    try {
      const signed = await signedUrl(base, account, 'alice/x.mp4', 'down');
      const res = await fetch(signed, { headers: { 'x-request-id': 'provider-down' } });
      expect(res.status).toBe(502);
      const body = await res.text();
      expect(body).not.toContain('ECONNREFUSED');
      const failed = lines
        .map((l) => JSON.parse(l))
        .find((l) => l.reqId === 'provider-down' && l.msg === 'request failed');
      expect(failed?.err?.logDetail).toMatch(/ECONNREFUSED/);
      const all = lines.join('\n');
      expect(all).not.toContain('X-Amz-Signature=');
      expect(all).not.toContain('down-secret-value');
      expect(all).not.toContain(new URL(signed).searchParams.get('s')!);
    } finally {
      await app.close();
      await ts.destroy();
    }
  });

  it('tells a client that a provider is misconfigured, and only the log why (a server without its master key)', async () => {
    const ts = await createTestStore('sqlite');
    const env = { LOG_LEVEL: 'info', STORAGE_URL_SIGNING_KEY: SIGNING_KEY, SIGHTLINE_MASTER_KEY: MASTER_KEY };
    const config = loadConfig({ data: ts.location.dataDir }, env);
    await createProvider(ts.store, config, null, {
      name: 'keyed',
      type: 's3',
      config: { bucket: 'media', accessKeyId: 'AKIDKEYED', secretAccessKey: 'keyed-secret-value' },
    });
    const account = await createAccount(ts.store, null, { name: 'keyless', defaultProvider: 'keyed' });
    const { SIGHTLINE_MASTER_KEY: _, ...withoutKey } = env;
    const { app, base, lines } = await loggedServer(loadConfig({ data: ts.location.dataDir }, withoutKey), ts);
    try {
      const res = await fetch(`${base}/api/storage`, {
        headers: {
          'x-request-id': 'keyless-1',
          'x-service-storage-accesskey': account.accessKey,
          'x-service-storage-secretaccesskey': account.secretAccessKey,
          'x-service-storage-filename': 'a/b.mp4',
          'x-service-storage-provider': 'keyed',
        },
      });
      expect(res.status).toBe(502);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'provider_error', provider: 'keyed' });
      expect(JSON.stringify(body)).not.toMatch(/MASTER_KEY|decrypt/);
      const failed = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === 'keyless-1' && l.msg === 'request failed');
      expect(failed?.err?.logDetail).toMatch(/SIGHTLINE_MASTER_KEY/);
    } finally {
      await app.close();
      await ts.destroy();
    }
  });
});

describe('the log of a server process', () => {
  it('reaches stdout within a second or two on a quiet server, not once 4 KiB have gathered', async () => {
    const ts = await createTestStore('sqlite');
    const server = await spawnServer(ts.location, { LOG_LEVEL: 'info' });
    try {
      let out = '';
      const seen = new Promise<void>((resolve) => {
        server.child.stdout!.on('data', (c) => {
          out += c;
          if (out.includes('"reqId":"flush-me"')) resolve();
        });
      });
      await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'flush-me' } });
      const started = Date.now();
      await seen;
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
      await ts.destroy();
    }
  });

  it('exits on SIGTERM when nobody reads its stdout any more (a flush at exit retried a broken pipe for ever)', async () => {
    const ts = await createTestStore('sqlite');
    const server = await spawnServer(ts.location, { LOG_LEVEL: 'info' });
    try {
      server.child.stdout!.destroy();
      // A line that is buffered when the signal comes, and written first at exit.
      await fetch(`${server.url}/api/health`);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await ts.destroy();
    }
  });
});
