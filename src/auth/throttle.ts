// Login throttling policy, pure: the counters themselves live in the database (shared by instances).
//
// A sliding window, estimated from two fixed ones: the failures of the current window plus the previous window's,
// weighted by how much of it still overlaps the last `window` seconds. A plain fixed window let twice the limit
// through around its edge (five failures at the end of one window, five more at the start of the next, within
// two seconds). The estimate spreads the previous window's failures evenly over it, so failures bunched at its end
// fade faster than they really leave: the next ones come spaced out (one every fifth of a window for a limit of
// five), never as a burst.
//
// Who is counted: a username from one client address, and an address under any username; each refuses only its own
// key. A failure that brings a key to its limit also locks it, for one window the first time and twice as long each
// time after (up to a day), so that a guesser's rate falls off; the user at another address is not refused. Attempts
// refused untried count nothing, so a client that keeps asking extends no lock. A username's failures from everywhere
// are counted too, for alerting only.

import { hashSecret } from './secrets.js';

/** Longer usernames are refused by /login (no account has one): a longer one is a wrong one. */
export const MAX_USERNAME = 256;

// Keys name a username by its hash: a password typed into the username field must not sit in the table as text for a
// window. The hash is of the exact text, as the users table compares usernames (case-sensitively, on both dialects):
// `ann` and `ANN` are two users and never share a counter.
const usernameHash = (username: string) => hashSecret(username);

/**
 * A username's failures from everywhere: the view for alerting (a log line and a metric when it passes the per-user
 * limit), never a reason to refuse. Refusing on it let anyone lock any user out, the right password included.
 */
export function userFailureKey(username: string): string {
  return `user:${usernameHash(username)}`;
}

/** A username's failures from one client address: what refuses a guesser without refusing the user elsewhere. */
export function userAddressKey(username: string, address: string): string {
  return `${userAddressPrefix(username)}${address}`;
}

/** Every (username, address) key of a username starts with this (a new password forgets them all). */
export function userAddressPrefix(username: string): string {
  return `ua:${usernameHash(username)}:`;
}

/** An address's failures under any username: a guesser that moves from username to username. */
export function addressKey(address: string): string {
  return `addr:${address}`;
}

/** The longest a lock lasts, however often the key was locked. */
export const MAX_LOCK_MS = 86_400_000;

/**
 * How long the `lockouts`th lock of a key lasts: one window, then twice the one before, up to a day. A key whose
 * lock ended a day ago without another starts again from one window (the sweeper forgets it).
 */
export function lockDurationMs(lockouts: number, windowMs: number): number {
  return Math.min(MAX_LOCK_MS, windowMs * 2 ** Math.min(Math.max(lockouts - 1, 0), 30));
}

/** One key's failures before the attempt being judged. */
export interface FailureCounter {
  /** Failures counted since windowStart. */
  failures: number;
  /** Failures of the window before it (which ended at windowStart). */
  previous: number;
  windowStart: number;
  /** When the key's lock ends (0: never locked). */
  lockedUntil?: number;
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
  if (!counter) return 0;
  const locked = counter.lockedUntil && counter.lockedUntil > now ? Math.ceil((counter.lockedUntil - now) / 1000) : 0;
  if (recentFailures(counter, windowMs, now) < max) return locked;
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
  return Math.max(locked, 1, Math.ceil((reopens + 1 - now) / 1000));
}
