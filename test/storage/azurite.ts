// An Azure Blob Storage emulator process for tests: Azurite's blob service on loopback, in memory, no telemetry
// (nothing leaves the machine). 3.35 is the newest Azurite that runs on Node 20; later releases need Node 22.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';
import { freePort } from '../support/cli.js';

const BIN = path.resolve(import.meta.dirname, '../../node_modules/azurite/dist/src/blob/main.js');

/** Azurite's documented development account. */
export const AZURITE_ACCOUNT = {
  account: 'devstoreaccount1',
  accountKey: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
};

export interface Azurite {
  endpoint: string;
  container: string;
  close(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export async function startAzurite(container = 'media'): Promise<Azurite> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--inMemoryPersistence',
      '--disableTelemetry',
      '--silent',
      // Only the test's own container creation (through the SDK, whose API version is newer than 3.35 knows) needs it.
      '--skipApiVersionCheck',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const deadline = Date.now() + 30_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`azurite exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`azurite did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT.account}`;
  const connection = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT.account};AccountKey=${AZURITE_ACCOUNT.accountKey};BlobEndpoint=${endpoint};`;
  await BlobServiceClient.fromConnectionString(connection).getContainerClient(container).create();
  return {
    endpoint,
    container,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
