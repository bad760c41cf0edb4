// Child processes for benchmarks: the bare floor server, and peak-RSS readings of any child.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function startBareServer(constant?: string): Promise<{ child: ChildProcess; url: string }> {
  return startBenchServer('bare-server.ts', constant ? [constant] : []);
}

/** One of bench/'s own servers (a TypeScript file that listens on argv[2] and prints its port). */
export async function startBenchServer(file: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, file), '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (c) => resolve(Number(String(c).trim())));
    child.once('exit', (code) => reject(new Error(`${file} exited ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Peak resident memory (VmHWM) of a process, in MiB. */
export function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
