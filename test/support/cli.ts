// Runs the real `sightline` CLI (from source, through tsx) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ENTRY = path.resolve(import.meta.dirname, 'cli-entry.ts');
const BIN = path.resolve(import.meta.dirname, '../../bin/sightline.js');
// Benchmarks run the built binary (as production does); tests run the sources through tsx.
const SERVER_ARGS = process.env.SIGHTLINE_SPAWN_BUILT === '1' ? [BIN] : ['--import', 'tsx', ENTRY];

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

export function runCli(args: string[], location: StoreLocation, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args, '--data', location.dataDir], {
      env: envFor(location, env),
    });
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
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_ARGS, 'serve', '--port', String(port), '--data', location.dataDir], {
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
