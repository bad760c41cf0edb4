// Measures of a parsed JSON value that never recurse: a body may nest arrays and objects tens of thousands
// deep (a 32 MiB body holds 16 million brackets), and JSON.stringify of such a value overflows the stack.

/** Whether JSON.stringify(value) is longer than `limit` UTF-8 bytes; stops counting once it is. */
export function jsonBytesOver(value: unknown, limit: number): boolean {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (v === null || typeof v !== 'object') {
      total += scalarBytes(v);
    } else if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (let i = v.length - 1; i >= 0; i--) pending.push(v[i]);
    } else {
      const keys = Object.keys(v);
      total += 2 + Math.max(0, keys.length - 1);
      for (const key of keys) {
        total += Buffer.byteLength(JSON.stringify(key), 'utf8') + 1;
        pending.push((v as Record<string, unknown>)[key]);
      }
    }
    if (total > limit) return true;
  }
  return false;
}

function scalarBytes(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(JSON.stringify(v), 'utf8');
  // A parsed value holds no undefined; JSON.stringify writes one inside an array as null.
  return v === undefined ? 4 : String(JSON.stringify(v)).length;
}

/** Whether arrays and objects nest more than `maxDepth` levels in `value` (a scalar is depth 0). */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(v)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Whether a number past a double's range (JSON's 1e400, parsed as ±Infinity) is anywhere in `value`. */
export function holdsNonFiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    // One push per member: a spread of a 300 000-element array would overflow the call stack.
    if (v !== null && typeof v === 'object') for (const member of Object.values(v)) pending.push(member);
  }
  return false;
}

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, read from its bytes without parsing: brackets
 * inside strings do not count. Meant for text that is about to be parsed; on malformed text the answer is only a
 * guess, and the parse decides.
 */
export function textNestedDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // Skip the string: a backslash escapes the next byte.
      for (i++; i < bytes.length && bytes[i] !== 0x22; i++) if (bytes[i] === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

// With the u flag a lone surrogate is a code point of category Cs; a proper pair is one code point of another.
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether a string is valid Unicode text: JSON's \uD800-style escapes can make one that UTF-8 cannot hold. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

// C0 controls and DEL: what would break a line of output or a header.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Text with no control character and no lone surrogate (JSON's "\ud800", which UTF-8 cannot hold). */
export function isPlainText(text: string): boolean {
  return !CONTROL.test(text) && isWellFormed(text);
}

/** Valid Unicode without U+0000, which PostgreSQL text cannot hold: storable the same way on both dialects. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && isWellFormed(text);
}
