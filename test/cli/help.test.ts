// What --help promises (every flag that works, what leaving one out means), and the demo's log level.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertBuilt, exited, freePort, runCli } from '../support/cli.js';

describe('--help', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-help-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const help = async (...args: string[]) => {
    const r = await runCli([...args, '--help'], { dataDir });
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  it('sightline --help and serve --help list --database-url and --log-level', async () => {
    const all = await help();
    expect(all).toMatch(/sightline serve .*\[--database-url postgres:\/\/…\] \[--log-level info\]/);
    expect(all).toMatch(/every command also takes: .*--database-url .*--log-level/);
    expect(await help('serve')).toMatch(
      /^usage: sightline serve .*\[--database-url postgres:\/\/…\] \[--log-level info\]/,
    );
  });

  it('admin token create --help says that a token without --expires-in never expires', async () => {
    expect(await help('admin', 'token', 'create')).toMatch(/\[--expires-in [^\]]*default: never expires[^\]]*\]/);
  });
});

describe('demo log level', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the demo, makes one request, stops it; its whole stdout (the log is flushed at exit). */
  async function demo(
    args: string[],
    logLevel: string | undefined,
    options: { dataDir?: string; env?: Record<string, string> } = {},
  ): Promise<string> {
    const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-demo-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
    delete env.DATABASE_URL;
    delete env.LOG_LEVEL;
    if (!options.env?.STORAGE_URL_SIGNING_KEY) delete env.STORAGE_URL_SIGNING_KEY;
    if (logLevel !== undefined) env.LOG_LEVEL = logLevel;
    assertBuilt();
    const child = spawn(process.execPath, [BIN, 'demo', '--port', String(port), '--data', dataDir, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const ready = new Promise<void>((resolve) => {
      child.stdout.on('data', (c) => {
        stdout += c;
        if (stdout.includes('Sightline demo running at')) resolve();
      });
    });
    const ended = exited(child);
    try {
      await Promise.race([
        ready,
        ended.then(() => {
          throw new Error(`demo exited: ${stderr}`);
        }),
      ]);
      expect(
        (await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { 'x-request-id': 'demo-log-probe' } })).status,
      ).toBe(200);
      child.kill('SIGTERM');
      expect(await ended, stderr).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    return stdout;
  }
  const requestLine = /"reqId":"demo-log-probe".*"msg":"request"/;

  it('logs at warn when neither LOG_LEVEL nor --log-level is given: the quick reference stays readable', async () => {
    const out = await demo([], undefined);
    expect(out).toMatch(/sign in: {3}username demo/);
    expect(out).not.toMatch(requestLine);
  });

  it('honours LOG_LEVEL', async () => {
    expect(await demo([], 'info')).toMatch(requestLine);
  });

  it('honours --log-level, over LOG_LEVEL', async () => {
    expect(await demo(['--log-level', 'debug'], 'error')).toMatch(requestLine);
  });

  it('starts again without the STORAGE_URL_SIGNING_KEY its first start was given (its fs provider needs a key every time)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-demo-'));
    expect(
      await demo([], undefined, { dataDir, env: { STORAGE_URL_SIGNING_KEY: 'first-start-key-0123456789abcdef' } }),
    ).toMatch(/sign in: {3}username demo/);
    expect(await demo([], undefined, { dataDir })).toMatch(/sign in: {3}username demo/);
  });
});
