// `admin recording import`: register every recording file (.mp4, not _redacted.mp4) found on an fs provider.
// Storage providers offer no listing yet, so this walks the fs provider's root directory itself (the root the
// storage domain resolves, see fsRoot in registry.ts), never following symbolic links out of it.
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { startFromMediaKey } from '../recordings/media-key.js';
import { registerRecording } from '../recordings/queries.js';
import { findProviders } from './queries.js';
import { fsRoot } from './registry.js';

export const isRecordingKey = (key: string): boolean => /\.mp4$/i.test(key) && !/_redacted\.mp4$/i.test(key);

/** Object keys (`dir/sub/file.mp4`) of the recording files under root/prefix, sorted. */
export async function listRecordingKeys(
  root: string,
  prefix = '',
): Promise<Array<{ key: string; mtimeSeconds: number }>> {
  const clean = prefix.split('/').filter((s) => s !== '' && s !== '.');
  if (clean.includes('..')) throw new Error('--prefix must stay inside the provider');
  const out: Array<{ key: string; mtimeSeconds: number }> = [];
  async function walk(dir: string, keyParts: string[]) {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      const parts = [...keyParts, entry.name];
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), parts);
      else if (entry.isFile() && isRecordingKey(entry.name)) {
        const stat = await fsp.stat(path.join(dir, entry.name));
        out.push({ key: parts.join('/'), mtimeSeconds: Math.floor(stat.mtimeMs / 1000) });
      }
    }
  }
  await walk(path.join(root, ...clean), clean);
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface ImportSummary {
  found: number;
  created: number;
  existing: number;
  failed: number;
  failures: Array<{ key: string; reason: string }>;
}

export async function importFromProvider(
  store: Store,
  config: Config,
  orgId: string,
  providerName: string,
  prefix: string | undefined,
  progress: (done: number, total: number) => void = () => {},
): Promise<ImportSummary> {
  // The organisation's provider of that name, else the service-wide one (`admin provider create` without --org):
  // whoever runs the CLI operates the service and may read either.
  const [row] = [
    ...(await findProviders(store.db, orgId, [providerName])),
    ...(await findProviders(store.db, null, [providerName])),
  ];
  if (!row) throw new Error(`no storage provider named "${providerName}" in this organisation or service-wide`);
  if (row.type !== 'fs')
    throw new Error(`provider "${providerName}" is of type ${row.type}; import lists fs providers only`);
  const root = fsRoot(config, row, JSON.parse(row.settings) as { root?: string });
  const files = await listRecordingKeys(root, prefix);
  const summary: ImportSummary = { found: files.length, created: 0, existing: 0, failed: 0, failures: [] };
  let done = 0;
  for (const file of files) {
    const startTimestamp = startFromMediaKey(file.key) ?? file.mtimeSeconds;
    try {
      const reg = await registerRecording(
        store.db,
        orgId,
        { mediaKey: file.key, startTimestamp, provider: providerName },
        { compare: false },
      );
      if (reg.outcome === 'created') summary.created++;
      else if (reg.outcome === 'existing') summary.existing++;
      else {
        summary.failed++;
        summary.failures.push({ key: file.key, reason: reg.outcome });
      }
    } catch (err) {
      summary.failed++;
      summary.failures.push({ key: file.key, reason: (err as Error).message });
    }
    progress(++done, files.length);
  }
  return summary;
}
