// Login throttling policy, pure: the counters themselves live in the database (shared by instances).
//
// A sliding window, estimated from two fixed ones: the failures of the current window plus the previous window's,
// weighted by how much of it still overlaps the last `window` seconds. A plain fixed window let twice the limit
// through around its edge (five failures at the end of one window, five more at the start of the next, within
// two seconds). The estimate spreads the previous window's failures evenly over it, so failures bunched at its end
// fade faster than they really leave: the next ones come spaced out (one every fifth of a window for a limit of
// five), never as a burst.

import { hashSecret } from './secrets.js';

/** Longer usernames are refused by /login; only this much of one names its failure counter. */
export const MAX_USERNAME = 256;

/**
 * The failure counter of a username, for every spelling of it in case. Hashed: a password typed into the username
 * field must not sit in the table as text for a window.
 */
export function userFailureKey(username: string): string {
  return `user:${hashSecret(username.slice(0, MAX_USERNAME).toLowerCase())}`;
}

/** One key's failures before the attempt being judged. */
export interface FailureCounter {
  /** Failures counted since windowStart. */
  failures: number;
  /** Failures of the window before it (which ended at windowStart). */
  previous: number;
  windowStart: number;
}

/** Failures in the `window` before `now`, as the two windows estimate them. */
export function recentFailures(counter: FailureCounter, windowMs: number, now: number): number {
  const elapsed = Math.max(0, now - counter.windowStart);
  if (elapsed >= 2 * windowMs) return 0;
  if (elapsed >= windowMs) return counter.failures * (1 - (elapsed - windowMs) / windowMs);
  return counter.previous * (1 - elapsed / windowMs) + counter.failures;
}

/** Seconds until another attempt is allowed (when nothing else fails meanwhile), or 0 when the key may try now. */
export function retryAfterSeconds(
  counter: FailureCounter | undefined,
  max: number,
  windowSeconds: number,
  now: number,
): number {
  const windowMs = windowSeconds * 1000;
  if (!counter || recentFailures(counter, windowMs, now) < max) return 0;
  // Claims of concurrent attempts that are about to be refused (and uncounted) may be in `failures` too; the real
  // failures of one window never exceed max, so more than max is that noise, and would only lengthen the wait.
  const { previous, windowStart } = counter;
  const failures = Math.min(counter.failures, max);
  // The moment the estimate falls below max: within this window while the previous one fades, else within the next
  // one while this one fades. A millisecond later, so that the estimate is below, not at, the limit.
  const reopens =
    failures < max
      ? windowStart + windowMs * (1 - (max - failures) / previous)
      : windowStart + windowMs + windowMs * (1 - max / failures);
  return Math.max(1, Math.ceil((reopens + 1 - now) / 1000));
}
