// STORAGE_URL_SIGNING_KEY (comma-separated: the first signs, all verify), or the key file the demo writes.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export const KEY_FILE = 'storage-url-signing.key';

export function signingKeys(config: Config): string[] {
  if (config.storage.urlSigningKeys.length > 0) return config.storage.urlSigningKeys;
  try {
    return fs
      .readFileSync(path.join(config.dataDir, KEY_FILE), 'utf8')
      .split(/[,\n]/)
      .map((k) => k.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}
