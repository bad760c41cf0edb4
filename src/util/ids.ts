import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/**
 * A sortable unique id: 10 chars of millisecond time then 16 random chars, like a ULID.
 * Sorting by id sorts by creation time, which keeps generated runIds "oldest first"-friendly.
 */
export function newId(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const rnd = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[rnd[i]! & 31];
  return time + tail;
}
