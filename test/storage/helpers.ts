// Storage fixtures: an organisation with providers and accounts made through the same admin functions the CLI uses.
import fs from 'node:fs';
import path from 'node:path';
import { createOrganisation } from '../../src/auth/queries.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import type { TestServer } from '../support/server.js';

export const SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';
export const MASTER_KEY = 'test-master-key-fedcba9876543210';
export const STORAGE_ENV = { STORAGE_URL_SIGNING_KEY: SIGNING_KEY, SIGHTLINE_MASTER_KEY: MASTER_KEY };

export interface StorageFixture {
  orgId: string;
  /** Root folder of the `disk` fs provider. */
  root: string;
  account: { name: string; accessKey: string; secretAccessKey: string };
  headers(extra?: Record<string, string>): Record<string, string>;
}

let n = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

/** Organisation + fs provider `disk` + s3 provider `s3` + an account bound to both (default disk). */
export async function seedStorage(
  server: TestServer,
  options: { directories?: string[]; s3Endpoint?: string } = {},
): Promise<StorageFixture> {
  const org = await createOrganisation(server.store.db, unique('org'));
  const root = path.join(server.config.dataDir, unique('root'));
  fs.mkdirSync(root, { recursive: true });
  await createProvider(server.store, server.config, org.id, { name: 'disk', type: 'fs', config: { root } });
  await createProvider(server.store, server.config, org.id, {
    name: 's3',
    type: 's3',
    config: {
      bucket: 'media-bucket',
      region: 'eu-west-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      ...(options.s3Endpoint ? { endpoint: options.s3Endpoint, pathStyle: true } : {}),
    },
  });
  const created = await createAccount(server.store, org.id, {
    name: unique('acct'),
    defaultProvider: 'disk',
    providers: ['s3'],
    directories: options.directories ?? ['*'],
  });
  const account = { name: created.name, accessKey: created.accessKey, secretAccessKey: created.secretAccessKey };
  return {
    orgId: org.id,
    root,
    account,
    headers: (extra = {}) => ({
      'x-service-storage-accesskey': account.accessKey,
      'x-service-storage-secretaccesskey': account.secretAccessKey,
      ...extra,
    }),
  };
}

export function writeObject(root: string, key: string, content: string | Buffer): void {
  const file = path.join(root, ...key.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

export async function getUrl(server: TestServer, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/api/storage`, { headers });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function bulk(
  server: TestServer,
  headers: Record<string, string>,
  body: unknown,
  contentType = 'application/json',
) {
  const res = await fetch(`${server.url}/api/storage/bulk`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
