// URL lifetimes: integer seconds or a duration string, bounded by the longest an S3 signature lives.
import { parseDuration } from './duration.js';

export const MIN_EXPIRY_SECONDS = 1;
export const MAX_EXPIRY_SECONDS = 604_800;

/** Seconds for a JSON number, digit string or duration such as `1h30m`; undefined when invalid or out of bounds. */
export function parseExpiry(input: unknown): number | undefined {
  let seconds: number | undefined;
  if (typeof input === 'number') seconds = Number.isInteger(input) ? input : undefined;
  else if (typeof input === 'string') seconds = parseDuration(input);
  if (seconds === undefined || seconds < MIN_EXPIRY_SECONDS || seconds > MAX_EXPIRY_SECONDS) return undefined;
  return seconds;
}

export const EXPIRY_HINT =
  'uriExpiryTime must be 1 to 604800 seconds: an integer, or a duration such as 90s, 30m, 1h30m, 24h, 7d';
