// Admin input for an account: name, bound providers (the default always among them) and directories. Pure.
import { providerNameProblem } from './provider-config.js';

export interface AccountInput {
  name: string;
  defaultProvider: string;
  providers: string[];
  directories: string[];
}
export type AccountInputResult = { ok: true; value: AccountInput } | { ok: false; detail: string };

const DIRECTORY = /^[^/\\\u0000-\u001f\u007f]{1,255}$/;

/** A value as an error message names it: short, and never by serialising what may be nested 10 000 deep. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}

// Generous bounds that keep an account's row, and the queries that check its providers, small.
const MAX_DIRECTORIES = 1000;
const MAX_PROVIDERS = 100;

export function directoriesProblem(dirs: unknown): string | undefined {
  if (!Array.isArray(dirs) || dirs.length === 0)
    return 'directories must be ["*"] or a non-empty list of top-level directory names';
  if (dirs.length > MAX_DIRECTORIES) return `an account has at most ${MAX_DIRECTORIES} directories`;
  for (const d of dirs) {
    if (typeof d !== 'string' || (d !== '*' && (!DIRECTORY.test(d) || d === '.' || d === '..'))) {
      return `directory ${shown(d)} is not a top-level directory name (no "/", "\\", control characters, "." or "..")`;
    }
  }
  if (dirs.includes('*') && dirs.length > 1) return '"*" already allows every directory; give it alone';
  return undefined;
}

export function providersProblem(list: unknown): string | undefined {
  if (!Array.isArray(list)) return 'providers must be a list of provider names';
  if (list.length > MAX_PROVIDERS) return `an account has at most ${MAX_PROVIDERS} providers`;
  for (const p of list) if (providerNameProblem(p)) return `provider ${shown(p)}: ${providerNameProblem(p)}`;
  return undefined;
}

export function checkAccountInput(input: Record<string, unknown>): AccountInputResult {
  const allowed = new Set(['name', 'defaultProvider', 'providers', 'directories']);
  const unknown = Object.keys(input).filter((k) => !allowed.has(k));
  if (unknown.length > 0) return { ok: false, detail: `unknown field(s): ${unknown.join(', ')}` };
  const nameProblem = providerNameProblem(input.name);
  if (nameProblem) return { ok: false, detail: `account ${nameProblem}` };
  if (typeof input.defaultProvider !== 'string' || providerNameProblem(input.defaultProvider))
    return { ok: false, detail: 'defaultProvider must name a provider' };
  const providers = input.providers ?? [];
  const pp = providersProblem(providers);
  if (pp) return { ok: false, detail: pp };
  const directories = input.directories ?? ['*'];
  const dp = directoriesProblem(directories);
  if (dp) return { ok: false, detail: dp };
  const bound = [...new Set([input.defaultProvider, ...(providers as string[])])];
  return {
    ok: true,
    value: {
      name: input.name as string,
      defaultProvider: input.defaultProvider,
      providers: bound,
      directories: [...new Set(directories as string[])],
    },
  };
}
