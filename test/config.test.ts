// Settings: a value that would quietly break the server (every login 429, every download 504, throttling off) is
// refused at start with the setting's name; 0 stays accepted only where it means something.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { runCli } from './support/cli.js';
import { postJson, serveLocation, startTestServer } from './support/server.js';
import { createTestStore } from './support/store.js';

/**
 * `sightline serve` with these settings, in-process: how it ended. A serve that started would never return (the
 * test then fails on its timeout); one that refuses its settings exits at once.
 */
async function serve(dataDir: string, settings: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const r = await runCli(['serve', '--port', '0'], { dataDir }, { LOG_LEVEL: 'info', ...settings });
  return { code: r.code, stderr: r.stderr };
}

describe('SESSION_TTL', () => {
  it('takes a duration up to 365 days and refuses a longer one (its expiry would not be a date)', () => {
    expect(loadConfig({}, { SESSION_TTL: '365d' }).sessionTtlSeconds).toBe(365 * 86_400);
    for (const bad of ['366d', '100000000d', '9007199254740991']) {
      expect(() => loadConfig({}, { SESSION_TTL: bad }), bad).toThrow(/SESSION_TTL must be at most 365d/);
    }
  });
});

describe('empty and padded settings', () => {
  it('an empty SESSION_TTL is the default, as every other empty setting is', () => {
    expect(loadConfig({}, { SESSION_TTL: '' }).sessionTtlSeconds).toBe(12 * 3600);
  });

  it('STORAGE_PUBLIC_URL loses the spaces around it, and is refused with spaces, tabs or newlines inside', () => {
    expect(loadConfig({}, { STORAGE_PUBLIC_URL: ' https://m.example.com/media/\n' }).storage.publicUrl).toBe(
      'https://m.example.com/media',
    );
    for (const bad of ['https://ex\tample.com', 'https://x.com/a b', 'https://x.com/a\nb']) {
      expect(() => loadConfig({}, { STORAGE_PUBLIC_URL: bad }), JSON.stringify(bad)).toThrow(
        /STORAGE_PUBLIC_URL must be/,
      );
    }
  });
});

describe('integer settings', () => {
  const positive = [
    'LOGIN_MAX_FAILURES_PER_USER',
    'LOGIN_MAX_FAILURES_PER_ADDRESS',
    'LOGIN_WINDOW_SECONDS',
    'STORAGE_PROVIDER_TIMEOUT_MS',
    'SHUTDOWN_GRACE_MS',
    'DATABASE_CONNECT_TIMEOUT_MS',
    'DATABASE_QUERY_TIMEOUT_MS',
    'RUN_REVISIONS_KEPT',
  ];

  it.each(positive)('%s takes an integer of at least 1 and refuses 0 and what is not one', (name) => {
    for (const bad of ['0', '-1', '1.5', ' ', 'abc', '0x10', '1e3']) {
      expect(() => loadConfig({}, { [name]: bad }), bad).toThrow(
        new RegExp(`^${name} must be an integer (of at least 1|from 1 to \\d+), got "${bad}"`),
      );
    }
    expect(() => loadConfig({}, { [name]: '1' })).not.toThrow();
    expect(() => loadConfig({}, { [name]: ' 30 ' })).not.toThrow();
  });

  it('RUN_REVISIONS_KEPT is 20 unless set, and at most 10000', () => {
    expect(loadConfig({}, {}).runRevisionsKept).toBe(20);
    expect(loadConfig({}, { RUN_REVISIONS_KEPT: '3' }).runRevisionsKept).toBe(3);
    expect(() => loadConfig({}, { RUN_REVISIONS_KEPT: '10001' })).toThrow(
      /RUN_REVISIONS_KEPT must be an integer from 1 to 10000/,
    );
  });

  it('keeps 0 where it means something: any free port, no idle limit on a stream, no sweeper', () => {
    const config = loadConfig({ port: '0' }, { STORAGE_SEND_IDLE_TIMEOUT_MS: '0', SWEEP_INTERVAL_SECONDS: '0' });
    expect([config.port, config.storage.sendIdleTimeoutMs, config.sweepIntervalSeconds]).toEqual([0, 0, 0]);
    expect(() => loadConfig({ port: '65536' }, {})).toThrow(
      /the port \(--port \/ PORT\) must be an integer from 0 to 65535/,
    );
  });

  it('refuses timers past what Node can wait for (a longer one fires after 1 ms)', () => {
    for (const name of ['STORAGE_PROVIDER_TIMEOUT_MS', 'STORAGE_SEND_IDLE_TIMEOUT_MS', 'SHUTDOWN_GRACE_MS']) {
      expect(() => loadConfig({}, { [name]: '2147483648' }), name).toThrow(
        new RegExp(`${name} must be an integer from \\d to 2147483647`),
      );
      expect(() => loadConfig({}, { [name]: '2147483647' }), name).not.toThrow();
    }
    expect(() => loadConfig({}, { SWEEP_INTERVAL_SECONDS: '2147484' })).toThrow(
      /SWEEP_INTERVAL_SECONDS must be an integer from 0 to 2147483/,
    );
    expect(loadConfig({}, { SWEEP_INTERVAL_SECONDS: '2147483' }).sweepIntervalSeconds).toBe(2_147_483);
  });
});

describe('TRUST_PROXY', () => {
  it('reads a boolean, a hop count, or addresses and CIDR ranges, as Fastify does', () => {
    for (const on of ['true', 'TRUE', 'yes', 'on'])
      expect(loadConfig({}, { TRUST_PROXY: on }).trustProxy, on).toBe(true);
    for (const off of ['false', '0', 'No', 'off', ''])
      expect(loadConfig({}, { TRUST_PROXY: off }).trustProxy, off).toBe(false);
    expect(loadConfig({}, {}).trustProxy).toBe(false);
    expect(loadConfig({}, { TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({}, { TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2);
    expect(loadConfig({}, { TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['maybe', '10.0.0.0/33', '10.0.0.300', '10.0.0.0/8,', 'fd00::/129', '256'])
      expect(() => loadConfig({}, { TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });

  it('METRICS_PORT is off by default, a port otherwise, and never the public port', () => {
    expect(loadConfig({}, {}).metrics).toEqual({ port: undefined, host: '127.0.0.1' });
    expect(loadConfig({}, { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      port: 9464,
      host: '0.0.0.0',
    });
    expect(() => loadConfig({}, { METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from the public port/);
    expect(() => loadConfig({}, { METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be an integer/);
  });

  it('TRUST_PROXY=1 makes a real server take the client address from X-Forwarded-For', async () => {
    const ts = await createTestStore('sqlite');
    const server = await serveLocation(ts.location, {
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1',
      LOGIN_MAX_FAILURES_PER_USER: '100',
    });
    try {
      const login = (user: string, address: string) =>
        postJson(`${server.url}/login`, { username: user, password: 'wrong password' }, { 'x-forwarded-for': address });
      expect((await login('nobody-1', '203.0.113.1')).status).toBe(401);
      // Another client behind the same proxy has its own counter; the first one is now throttled.
      expect((await login('nobody-2', '203.0.113.2')).status).toBe(401);
      expect((await login('nobody-3', '203.0.113.1')).status).toBe(429);
    } finally {
      await server.close();
      await ts.destroy();
    }
  });

  it('without it, X-Forwarded-For is ignored: every client is the proxy', async () => {
    const server = await startTestServer('sqlite', {
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1',
      LOGIN_MAX_FAILURES_PER_USER: '100',
    });
    try {
      const login = (user: string, address: string) =>
        postJson(`${server.url}/login`, { username: user, password: 'wrong password' }, { 'x-forwarded-for': address });
      expect((await login('nobody-1', '203.0.113.1')).status).toBe(401);
      expect((await login('nobody-2', '203.0.113.2')).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('serve refuses at start, naming the setting', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-config-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    [
      { LOGIN_MAX_FAILURES_PER_USER: '0' },
      /LOGIN_MAX_FAILURES_PER_USER must be an integer of at least 1, got "0" \(0 would refuse every login\)/,
    ],
    [
      { LOGIN_MAX_FAILURES_PER_ADDRESS: '0' },
      /LOGIN_MAX_FAILURES_PER_ADDRESS must be an integer of at least 1, got "0"/,
    ],
    [
      { LOGIN_WINDOW_SECONDS: '0' },
      /LOGIN_WINDOW_SECONDS must be an integer from 1 to 31536000, got "0" \(0 would turn login throttling off\)/,
    ],
    [
      { STORAGE_PROVIDER_TIMEOUT_MS: '0' },
      /STORAGE_PROVIDER_TIMEOUT_MS must be an integer from 1 to 2147483647, got "0"/,
    ],
    [{ SHUTDOWN_GRACE_MS: '0' }, /SHUTDOWN_GRACE_MS must be an integer from 1 to 2147483647, got "0"/],
    [
      { STORAGE_SEND_IDLE_TIMEOUT_MS: '3000000000' },
      /STORAGE_SEND_IDLE_TIMEOUT_MS must be an integer from 0 to 2147483647/,
    ],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true, false, a hop count/],
  ])('%j', async (settings, message) => {
    const r = await serve(dataDir, settings);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(1);
  });
});
