// The `sightline` CLI for tests: admin commands run in-process through `main(argv, io)` (milliseconds each);
// what must be a process of its own (serve, demo, signals, smoke tests of the binary) spawns the built binary.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { distIsStale } from './built.js';

/** bin/sightline.js runs dist/; the e2e project's setup (test/support/build-setup.ts) rebuilds it when src is newer. */
export const BIN = path.resolve(import.meta.dirname, '../../bin/sightline.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}
export interface StoreLocation {
  databaseUrl?: string;
  dataDir: string;
}

function envFor(location: StoreLocation, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  if (location.databaseUrl) env.DATABASE_URL = location.databaseUrl;
  return env;
}

/** One command line, in this process, with the environment a spawned CLI would have had. */
export async function runCli(
  args: string[],
  location: StoreLocation,
  env: Record<string, string> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main([...args, '--data', location.dataDir], {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: envFor(location, env),
  });
  return { code, stdout, stderr };
}

let checked = false;
/** A spawned binary runs dist/: refuse to test an old build instead of the sources (the e2e setup rebuilds it). */
export function assertBuilt(): void {
  if (checked) return;
  if (distIsStale())
    throw new Error(
      'dist/ is older than src/: run `npm run build`, or run this file in the e2e project, which builds it',
    );
  checked = true;
}

/** The same, through the built binary in a process of its own: for the few smoke tests of the real executable. */
export function spawnCli(
  args: string[],
  location: StoreLocation,
  env: Record<string, string> = {},
): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--data', location.dataDir], { env: envFor(location, env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `sightline serve` and resolves once /api/health answers. */
export async function spawnServer(
  location: StoreLocation,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stderr: () => string; stdout: () => string }> {
  assertBuilt();
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data', location.dataDir], {
    env: envFor(location, env),
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  // The log lines (pino writes to stdout), for the tests that read them.
  let stdout = '';
  child.stdout!.on('data', (c) => (stdout += c));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    // A server killed by a signal (a native abort) has no exit code, only a signal.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url, stderr: () => stderr, stdout: () => stdout };
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
