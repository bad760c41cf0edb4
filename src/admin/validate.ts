// The administration's input rules, pure: the HTTP routes and the CLI check the same things and say the same words.
import { USER_ROLES, isUserRole, type UserRole } from '../auth/roles.js';
import { MAX_USERNAME } from '../auth/throttle.js';
import { ApiError } from '../http/problem.js';
import { parseDuration } from '../util/duration.js';
import { isPlainText } from '../util/json-shape.js';

export const MIN_PASSWORD = 8;
/** /login treats a longer password as a wrong one; none is stored. */
export const MAX_PASSWORD = 1024;
export const MAX_TOKEN_NAME_BYTES = 256;
/** Far beyond any real retention; the bound keeps the value within both databases' integer column. */
export const MAX_RETENTION_DAYS = 1_000_000;
/** Past 100 years a token's expiry is a typo: leave it out for a token that never expires. */
export const MAX_TOKEN_SECONDS = 36_500 * 86_400;
export const DEFAULT_INVITATION_SECONDS = 7 * 86_400;
export const MAX_INVITATION_SECONDS = 30 * 86_400;

/** A refused field: 400 `invalid_field` naming it, as the rest of the API answers. */
export function fieldError(field: string, detail: string): ApiError {
  return new ApiError(400, 'invalid_field', `${field} ${detail}`, { field });
}

/** Present, non-blank, plain text and short: a name someone types and others read. */
export function checkName(field: string, value: unknown, maxBytes: number): string {
  if (typeof value !== 'string') throw fieldError(field, 'must be a string');
  if (!/\S/.test(value)) throw fieldError(field, 'must not be blank');
  if (!isPlainText(value)) throw fieldError(field, 'must not contain control characters or broken Unicode');
  if (Buffer.byteLength(value) > maxBytes) throw fieldError(field, `must be at most ${maxBytes} bytes`);
  return value;
}

export const checkUsername = (value: unknown): string => checkName('username', value, MAX_USERNAME);
export const checkTokenName = (value: unknown): string => checkName('name', value, MAX_TOKEN_NAME_BYTES);

export function checkPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string') throw fieldError(field, 'must be a string');
  if (!/\S/.test(value)) throw fieldError(field, 'must not be blank');
  if (value.length < MIN_PASSWORD) throw fieldError(field, `must have at least ${MIN_PASSWORD} characters`);
  if (value.length > MAX_PASSWORD) throw fieldError(field, `must have at most ${MAX_PASSWORD} characters`);
  if (!isPlainText(value)) throw fieldError(field, 'must not contain control characters or broken Unicode');
  return value;
}

export function checkRole(value: unknown): UserRole {
  if (typeof value !== 'string' || !isUserRole(value))
    throw fieldError('role', `must be one of ${USER_ROLES.join(', ')}`);
  return value;
}

export function checkRetentionDays(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RETENTION_DAYS)
    throw fieldError('retentionDays', `must be an integer from 1 to ${MAX_RETENTION_DAYS}`);
  return value;
}

/**
 * A lifetime in seconds from a duration (`90d`, `12h`, `3600`, or a number of seconds), bounded: undefined when
 * absent (the caller's default applies).
 */
export function checkLifetime(field: string, value: unknown, maxSeconds: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const seconds =
    typeof value === 'string'
      ? parseDuration(value.trim())
      : typeof value === 'number'
        ? parseDuration(value)
        : undefined;
  if (seconds === undefined || seconds <= 0)
    throw fieldError(field, 'must be a duration such as 90d, 12h or 3600 (seconds)');
  if (seconds > maxSeconds) throw fieldError(field, `must be at most ${Math.floor(maxSeconds / 86_400)}d`);
  return seconds;
}

/** A token's expiry: `expiresIn` (a duration) or `expiresAt` (an ISO time in the future), not both; null: never. */
export function checkTokenExpiry(expiresIn: unknown, expiresAt: unknown, now: number): number | null {
  if (expiresIn !== undefined && expiresIn !== null && expiresAt !== undefined && expiresAt !== null)
    throw fieldError('expiresAt', 'and expiresIn cannot both be given');
  const seconds = checkLifetime('expiresIn', expiresIn, MAX_TOKEN_SECONDS);
  if (seconds !== undefined) return now + seconds * 1000;
  if (expiresAt === undefined || expiresAt === null) return null;
  const at = typeof expiresAt === 'string' && /^\d{4}-\d\d-\d\dT/.test(expiresAt) ? Date.parse(expiresAt) : Number.NaN;
  if (!Number.isFinite(at)) throw fieldError('expiresAt', 'must be an ISO-8601 time such as 2030-01-01T00:00:00Z');
  if (at <= now) throw fieldError('expiresAt', 'must be in the future');
  if (at > now + MAX_TOKEN_SECONDS * 1000) throw fieldError('expiresAt', 'must be within 100 years');
  return at;
}

/** Members a body may carry; any other is a mistake worth refusing (a typo would otherwise change nothing). */
export function checkMembers(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0)
    throw new ApiError(
      400,
      'invalid_field',
      `unknown field(s): ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`,
      {
        field: unknown[0],
      },
    );
}

/**
 * The owner role is the owners' to give and take: an admin who could make an owner (or change, reset or delete
 * one) could make itself one.
 */
export function ownerOnly(actorRole: string, touchesOwner: boolean, what: string): void {
  if (touchesOwner && actorRole !== 'owner' && actorRole !== 'operator')
    throw new ApiError(403, 'forbidden', `Only an owner can ${what}`);
}
