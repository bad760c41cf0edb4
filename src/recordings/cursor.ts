// Keyset cursors over (startTimestamp desc, id desc): opaque to clients, stable while rows are added.
import { ApiError } from '../http/problem.js';
import { holdsNul } from '../db/unstorable-text.js';

export interface Position {
  start: number;
  id: string;
}

export function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.start, p.id])).toString('base64url');
}

export function decodeCursor(text: unknown): Position | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  const bad = () =>
    new ApiError(400, 'invalid_field', 'cursor is not a cursor returned by this API', { field: 'cursor' });
  if (typeof text !== 'string' || text.length > 200) throw bad();
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1] !== '' &&
      !holdsNul(value[1])
    ) {
      return { start: value[0] as number, id: value[1] as string };
    }
  } catch {
    /* falls through to the 400 */
  }
  throw bad();
}

/** True when a comes before b in newest-first order. */
export function before(a: Position, b: Position): boolean {
  return a.start > b.start || (a.start === b.start && a.id > b.id);
}
