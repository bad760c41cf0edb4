// The admin domain's operations at the command line: their author in the audit log, and their refusals in the
// CLI's words (a refused value is a wrong flag, exit 2; anything about the store is exit 1).
import os from 'node:os';
import type { Actor } from '../../admin/actor.js';
import { ApiError } from '../../http/problem.js';
import { UsageError } from '../args.js';

/** The CLI's changes are the operator's: shell access to the store is every right. */
export function cliActor(): Actor {
  let name = 'cli';
  try {
    name = `cli:${os.userInfo().username}`;
  } catch {
    /* no user name (a container without one): "cli" */
  }
  return { kind: 'cli', id: null, name, role: 'operator', address: null };
}

const FLAG_OF_FIELD: Record<string, string> = {
  expiresIn: 'expires-in',
  expiresAt: 'expires-in',
  retentionDays: 'retention-days',
  keepRecordings: 'keep-recordings',
  editorStorageAccount: 'editor-storage-account',
};

/** Runs an operation; its ApiError becomes the CLI's message (`messages` by code, else the detail). */
export async function adminCli<T>(fn: () => Promise<T>, messages: Record<string, string> = {}): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const own = messages[err.code];
    if (own) throw new Error(own);
    // A well-formed flag naming what the store lacks is about the store (exit 1), not a wrong flag.
    if (err.code === 'unknown_account') throw new Error(err.message);
    const field = typeof err.extensions.field === 'string' ? err.extensions.field : undefined;
    if (err.status === 400 && field) {
      const flag = `--${FLAG_OF_FIELD[field] ?? field}`;
      throw new UsageError(err.message.startsWith(field) ? flag + err.message.slice(field.length) : err.message);
    }
    throw err.status === 400 ? new UsageError(err.message) : new Error(err.message);
  }
}
