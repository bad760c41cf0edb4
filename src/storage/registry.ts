// Provider rows become provider objects: credentials are decrypted once per row version and kept in memory only.
import path from 'node:path';
import type { Config } from '../config.js';
import { ApiError } from '../http/problem.js';
import { newId } from '../util/ids.js';
import type { ProviderConfig } from './provider-config.js';
import type { ProviderRow } from './queries.js';
import { open, seal } from './secret-box.js';
import { AzureProvider, type AzureSecret, type AzureSettings } from './providers/azure.js';
import { FsProvider } from './providers/fs.js';
import { GcsProvider, type GcsSecret, type GcsSettings } from './providers/gcs.js';
import { S3Provider, type S3Secret, type S3Settings } from './providers/s3.js';
import type { ProviderType, StorageProvider } from './providers/types.js';

const CACHE_LIMIT = 1000;
const cache = new Map<string, StorageProvider>();
// The row cache hands out the same row object until the rows change: looking that object up skips building the key.
const byRow = new WeakMap<ProviderRow, StorageProvider>();

/**
 * The fs provider's directory: its configured root (relative to the data folder), else
 * <data>/storage/<org id>/<name>, or <data>/storage/global/<name> for a service-wide provider.
 */
export function fsRoot(config: Config, row: Pick<ProviderRow, 'org_id' | 'name'>, settings: { root?: string }): string {
  return settings.root
    ? path.resolve(config.dataDir, settings.root)
    : path.join(config.dataDir, 'storage', row.org_id ?? 'global', row.name);
}

export function providerFromRow(config: Config, row: ProviderRow): StorageProvider {
  const same = byRow.get(row);
  if (same) return same;
  const cacheKey = `${row.id}:${row.updated_at}:${row.secret ?? ''}`;
  const hit = cache.get(cacheKey);
  if (hit) {
    byRow.set(row, hit);
    return hit;
  }
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  let secret: Record<string, string> = {};
  if (row.secret) {
    const masterKey = config.storage.masterKey;
    if (!masterKey) {
      throw Object.assign(
        new ApiError(502, 'provider_error', `Provider "${row.name}" is misconfigured on this server`, {
          provider: row.name,
        }),
        { logDetail: 'SIGHTLINE_MASTER_KEY is not set: its credentials cannot be decrypted' },
      );
    }
    try {
      secret = JSON.parse(open(masterKey, row.id, row.secret)) as Record<string, string>;
    } catch {
      throw Object.assign(
        new ApiError(502, 'provider_error', `Provider "${row.name}" is misconfigured on this server`, {
          provider: row.name,
        }),
        { logDetail: "its credentials cannot be decrypted with this server's SIGHTLINE_MASTER_KEY" },
      );
    }
  }
  const timeout = config.storage.providerTimeoutMs;
  let provider: StorageProvider;
  switch (row.type as ProviderType) {
    case 'fs':
      provider = new FsProvider(row.name, fsRoot(config, row, settings as { root?: string }));
      break;
    case 's3':
      provider = new S3Provider(row.name, settings as unknown as S3Settings, secret as unknown as S3Secret, timeout);
      break;
    case 'azure':
      provider = new AzureProvider(
        row.name,
        settings as unknown as AzureSettings,
        secret as unknown as AzureSecret,
        timeout,
      );
      break;
    case 'gcs':
      provider = new GcsProvider(row.name, settings as unknown as GcsSettings, secret as unknown as GcsSecret, timeout);
      break;
    default:
      throw new ApiError(502, 'provider_error', `Provider "${row.name}" has an unknown type`, { provider: row.name });
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey, provider);
  byRow.set(row, provider);
  return provider;
}

/** A ready-to-insert row; credentials are sealed under the master key, which must then be configured. */
export function newProviderRow(
  config: Config,
  orgId: string | null,
  name: string,
  type: ProviderType,
  value: ProviderConfig,
  enabled = true,
): ProviderRow {
  const now = Date.now();
  const id = newId(now);
  let secret: string | null = null;
  if (value.secret) {
    if (!config.storage.masterKey)
      throw new Error('SIGHTLINE_MASTER_KEY must be set to store provider credentials (they are encrypted at rest)');
    secret = seal(config.storage.masterKey, id, JSON.stringify(value.secret));
  }
  return {
    id,
    org_id: orgId,
    name,
    type,
    settings: JSON.stringify(value.settings),
    secret,
    enabled: enabled ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
}

/** What the admin interfaces show of a provider: never a credential. */
export function providerView(row: ProviderRow) {
  return {
    name: row.name,
    type: row.type,
    config: JSON.parse(row.settings) as Record<string, unknown>,
    hasCredentials: row.secret !== null,
    enabled: row.enabled === 1,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
