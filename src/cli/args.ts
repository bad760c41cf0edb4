// A small, strict argument parser: positional words, then --flag value / --flag=value / --switch.
import { isPlainText } from '../util/json-shape.js';
import { cliIo } from './io.js';

export type FlagValue = string | boolean | string[];

/** A command given the wrong flags: the CLI answers with the command's usage line and exit status 2. */
export class UsageError extends Error {}
export interface ParsedArgs {
  words: string[];
  flags: Record<string, FlagValue>;
}

/** Flags that never take a value; every other flag needs one. */
const SWITCHES = new Set([
  'json',
  'help',
  'path-style',
  'dry-run',
  'keep-recordings',
  'no-open',
  'force',
  'quiet',
  'class-agnostic',
  'interpolate',
]);

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const flags: Record<string, FlagValue> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    let value: string | boolean;
    if (SWITCHES.has(name)) {
      // `--dry-run=true` must not run for real: a switch takes true/false after `=`, or nothing.
      const text = eq < 0 ? 'true' : arg.slice(eq + 1).toLowerCase();
      if (text !== 'true' && text !== 'false')
        throw new UsageError(`--${name} is a switch: give it alone, or as --${name}=true / --${name}=false`);
      const on = text === 'true';
      if (flags[name] !== undefined && flags[name] !== on)
        throw new UsageError(`--${name} is given twice with different values`);
      flags[name] = on;
      continue;
    }
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new UsageError(`--${name} needs a value (or is not a flag: see --help)`);
      value = next;
      i++;
    }
    const previous = flags[name];
    if (previous === undefined) flags[name] = value;
    else flags[name] = [...(Array.isArray(previous) ? previous : [String(previous)]), String(value)];
  }
  return { words, flags };
}

export function stringFlag(flags: Record<string, FlagValue>, name: string, required: true): string;
export function stringFlag(flags: Record<string, FlagValue>, name: string, required?: false): string | undefined;
export function stringFlag(flags: Record<string, FlagValue>, name: string, required = false): string | undefined {
  const value = flags[name];
  if (Array.isArray(value)) throw new UsageError(`--${name} may be given only once`);
  // An explicit empty value is a mistake (an unset shell variable), not "absent": `--expires-in ""` must not
  // make a token that never expires.
  if (value === '') throw new UsageError(`--${name} needs a value, got an empty one`);
  if (value === undefined || value === true || value === false) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  return value;
}

export function listFlag(flags: Record<string, FlagValue>, name: string): string[] {
  const value = flags[name];
  if (value === undefined || typeof value === 'boolean') return [];
  return Array.isArray(value) ? value : [value];
}

export function numberFlag(
  flags: Record<string, FlagValue>,
  name: string,
  options: { integer?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const text = stringFlag(flags, name);
  if (text === undefined) return undefined;
  // Decimal notation only: Number() would read "0x6553F100" or "1e9" as numbers nobody meant to type.
  const n = (options.integer ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(text) ? Number(text) : NaN;
  const max = options.max ?? (options.integer ? Number.MAX_SAFE_INTEGER : undefined);
  if (
    !Number.isFinite(n) ||
    (options.integer && !Number.isInteger(n)) ||
    (options.min !== undefined && n < options.min) ||
    (max !== undefined && n > max)
  ) {
    const bounds = [
      options.min !== undefined ? `at least ${options.min}` : '',
      max !== undefined ? `at most ${max}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new UsageError(
      `--${name} must be ${options.integer ? 'an integer' : 'a number'}${bounds ? ` of ${bounds}` : ''}, got "${text}"`,
    );
  }
  return n;
}

/**
 * A required name (organisation, user, token label): not blank, no control character (a newline would split the
 * readable output's lines), valid Unicode, and short enough to show.
 */
export function nameFlag(flags: Record<string, FlagValue>, name: string, maxBytes = 256): string {
  const value = stringFlag(flags, name, true);
  if (!/\S/.test(value)) throw new UsageError(`--${name} must not be blank`);
  if (!isPlainText(value)) throw new UsageError(`--${name} must not contain control characters or broken Unicode`);
  if (Buffer.byteLength(value) > maxBytes) throw new UsageError(`--${name} must be at most ${maxBytes} bytes`);
  return value;
}

/** A secret from the environment (out of `ps` and shell history); a blank value counts as unset. */
export function envSecret(name: string): string | undefined {
  const value = cliIo().env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}
