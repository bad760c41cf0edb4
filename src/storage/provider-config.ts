// Admin input for a provider, checked per type and split into public settings and secret credentials. Pure.
import { createPrivateKey } from 'node:crypto';
import { parseConnectionString } from './providers/azure.js';
import { PROVIDER_TYPES, type ProviderType } from './providers/types.js';

export interface ProviderConfig {
  settings: Record<string, unknown>;
  secret?: Record<string, string>;
}
export type ConfigResult = { ok: true; value: ProviderConfig } | { ok: false; detail: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
export const providerNameProblem = (name: unknown): string | undefined =>
  typeof name === 'string' && NAME.test(name)
    ? undefined
    : 'name must be 1–63 letters, digits, ".", "_" or "-", starting with a letter or digit';

export const isProviderType = (t: unknown): t is ProviderType =>
  typeof t === 'string' && (PROVIDER_TYPES as readonly string[]).includes(t);

const ALLOWED: Record<ProviderType, string[]> = {
  fs: ['root'],
  s3: ['bucket', 'region', 'endpoint', 'pathStyle', 'accessKeyId', 'secretAccessKey', 'sessionToken'],
  azure: ['account', 'container', 'accountKey', 'connectionString', 'endpoint'],
  gcs: ['bucket', 'clientEmail', 'privateKey', 'serviceAccountKey', 'endpoint'],
};

function text(c: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const v = c[name];
  if (v === undefined || v === null || v === '') {
    if (required) throw new Error(`${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new Error(`${name} must be a string`);
  return v;
}

function url(c: Record<string, unknown>, name: string): string | undefined {
  const v = text(c, name, false);
  return v === undefined ? undefined : httpUrl(name, v);
}

/** An endpoint as signed URLs start with it: http(s) only (a `javascript:` endpoint would reach the editor's links). */
function httpUrl(name: string, v: string): string {
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new Error(`${name} must be an http(s) URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password)
    throw new Error(`${name} must not carry a query, fragment, user or password`);
  return v.replace(/\/+$/, '');
}

export function checkProviderConfig(type: ProviderType, input: unknown): ConfigResult {
  if (input === undefined) input = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, detail: 'config must be an object' };
  const c = input as Record<string, unknown>;
  const unknown = Object.keys(c).filter((k) => !ALLOWED[type].includes(k));
  if (unknown.length > 0)
    return {
      ok: false,
      detail: `unknown ${type} config field(s): ${unknown.join(', ')} (allowed: ${ALLOWED[type].join(', ')})`,
    };
  try {
    switch (type) {
      case 'fs':
        return {
          ok: true,
          value: { settings: { ...(text(c, 'root', false) ? { root: text(c, 'root', false) } : {}) } },
        };
      case 's3': {
        const bucket = text(c, 'bucket', true)!;
        if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error('bucket is not a valid S3 bucket name');
        const region = text(c, 'region', false) ?? 'us-east-1';
        if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new Error('region is not a valid region name');
        if (c.pathStyle !== undefined && typeof c.pathStyle !== 'boolean')
          throw new Error('pathStyle must be true or false');
        const sessionToken = text(c, 'sessionToken', false);
        return {
          ok: true,
          value: {
            settings: {
              bucket,
              region,
              ...(url(c, 'endpoint') ? { endpoint: url(c, 'endpoint') } : {}),
              pathStyle: c.pathStyle === true || bucket.includes('.'),
            },
            secret: {
              accessKeyId: text(c, 'accessKeyId', true)!,
              secretAccessKey: text(c, 'secretAccessKey', true)!,
              ...(sessionToken ? { sessionToken } : {}),
            },
          },
        };
      }
      case 'azure': {
        const cs = text(c, 'connectionString', false);
        const parsed = cs ? parseConnectionString(cs) : undefined;
        if (cs && !parsed) throw new Error('connectionString needs AccountName and AccountKey');
        const account = parsed?.account ?? text(c, 'account', true)!;
        const accountKey = parsed?.accountKey ?? text(c, 'accountKey', true)!;
        if (Buffer.from(accountKey, 'base64').length < 16) {
          throw new Error(
            `${parsed ? "the connectionString's AccountKey" : 'accountKey'} must be the base64 storage account key`,
          );
        }
        // Azure's naming rules: they keep "../x", "?" or "#" out of the URL's path.
        if (!/^[a-z0-9]{3,24}$/.test(account))
          throw new Error('account must be an Azure storage account name (3–24 lower-case letters and digits)');
        const container = text(c, 'container', true)!;
        if (!/^(?=.{3,63}$)[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]$/.test(container))
          throw new Error(
            'container must be an Azure container name (3–63 lower-case letters, digits and single hyphens)',
          );
        const endpoint =
          url(c, 'endpoint') ??
          (parsed?.endpoint !== undefined ? httpUrl('connectionString BlobEndpoint', parsed.endpoint) : undefined);
        return {
          ok: true,
          value: {
            settings: { account, container, ...(endpoint ? { endpoint: endpoint.replace(/\/+$/, '') } : {}) },
            secret: { accountKey },
          },
        };
      }
      case 'gcs': {
        let clientEmail = text(c, 'clientEmail', false);
        let privateKey = text(c, 'privateKey', false);
        const sak = c.serviceAccountKey;
        if (sak !== undefined) {
          let key: Record<string, unknown>;
          try {
            key = typeof sak === 'string' ? JSON.parse(sak) : (sak as Record<string, unknown>);
          } catch {
            throw new Error('serviceAccountKey must be the JSON key file');
          }
          clientEmail = typeof key?.client_email === 'string' ? key.client_email : clientEmail;
          privateKey = typeof key?.private_key === 'string' ? key.private_key : privateKey;
        }
        if (!clientEmail || !privateKey) throw new Error('gcs needs serviceAccountKey (or clientEmail and privateKey)');
        try {
          createPrivateKey(privateKey);
        } catch {
          throw new Error('the service-account private key is not a valid PEM key');
        }
        const endpoint = url(c, 'endpoint');
        const bucket = text(c, 'bucket', true)!;
        if (!/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/.test(bucket))
          throw new Error('bucket is not a valid Google Cloud Storage bucket name');
        return {
          ok: true,
          value: { settings: { bucket, clientEmail, ...(endpoint ? { endpoint } : {}) }, secret: { privateKey } },
        };
      }
    }
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}
