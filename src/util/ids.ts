import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

// Random bytes drawn 4 KiB at a time from the CSPRNG: one call into it per 256 ids, not one per id (a small POST
// makes several ids, and each call cost more than the id's other work).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

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
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[pool[poolOffset + i]! & 31];
  // Each byte is handed out once: the next id starts past these.
  poolOffset += 16;
  return time + tail;
}
