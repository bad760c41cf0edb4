// Whether an error means "the database cannot be reached or is going away", as opposed to a bug or bad data: such a
// request is worth retrying, so it is answered 503 service_unavailable (with Retry-After), not 500. Pure.

// Socket-level failures of the driver's connection.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of PostgreSQL (Appendix A): 08 connection exceptions; 57P01–57P03 shutdown/crash/not-yet-accepting;
// 53300 too many connections; 53100 disk full; 40P01 deadlock and 40001 serialization failure (the transaction
// was rolled back whole, and the same request sent again succeeds: the lock orders are meant to make these never
// happen, but an unforeseen one must not answer 500).
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53100', '40P01', '40001']);
// SQLite, with their extended codes: the file stayed locked past busy_timeout (a long write by another process), the
// disk is full, the file became read-only or unreadable under the server. Nothing was written (the statement's
// transaction rolled back), and the same request may succeed once an operator has made room.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|FULL|READONLY|IOERR|CANTOPEN)(_|$)/;

// node-postgres reports a lost or never-made connection with plain Errors and no code; these are its messages
// (pg and pg-pool 8.x), and our own query deadline's (store.ts).
const DRIVER_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Query read timeout|The database did not answer within)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08') || SQLITE_UNAVAILABLE.test(code))
  )
    return true;
  return typeof message === 'string' && DRIVER_MESSAGES.test(message);
}
