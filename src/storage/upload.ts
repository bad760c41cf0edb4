// `sightline storage put`: one local file into a provider under a key, through the provider's own write.
import fs from 'node:fs';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { ApiError } from '../http/problem.js';
import { contentTypeFor } from './content-type.js';
import { filenameProblem } from './filename.js';
import { findProviders, type Owner } from './queries.js';
import { providerFromRow } from './registry.js';

export async function uploadFile(
  store: Store,
  config: Config,
  owner: Owner,
  providerName: string,
  file: string,
  key: string,
) {
  const bad = filenameProblem(key);
  if (bad) throw new ApiError(400, 'invalid_filename', `--key: ${bad}`);
  const row = (await findProviders(store.db, owner, [providerName]))[0];
  if (!row) throw new ApiError(404, 'provider_not_found', `No provider named "${providerName}"`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ApiError(400, 'invalid_file', `Cannot read "${file}"`);
  }
  if (!stat.isFile()) throw new ApiError(400, 'invalid_file', `"${file}" is not a regular file`);
  const provider = providerFromRow(config, row);
  const { etag } = await provider.put(key, {
    body: fs.createReadStream(file),
    size: stat.size,
    contentType: contentTypeFor(key),
  });
  return { provider: providerName, key, size: stat.size, contentType: contentTypeFor(key), etag: etag ?? null };
}
