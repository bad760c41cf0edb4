// Service-signed URLs: the canonical string, the HMAC token, and parsing of the query. Pure.
import { timingSafeEqual } from 'node:crypto';
import { HmacSha256 } from './hmac-sha256.js';
import { filenameProblem } from './filename.js';

const VERSION = 'sightline-url-v1';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRY = /^\d{1,12}$/;
/** 9999-12-31T23:59:59Z: later instants have no four-digit ISO 8601 year, and no URL lives that long (7 days at most). */
const LAST_EXPIRY = 253_402_300_799;

export interface SignedTuple {
  account: string;
  provider: string;
  filename: string;
  expiresAt: number;
}

/** A JSON array is unambiguous: no two different tuples serialise to the same text. */
export function canonicalString(t: SignedTuple): string {
  return JSON.stringify([VERSION, t.account, t.provider, t.filename, t.expiresAt]);
}

// The configured keys (a handful at most), each prepared once.
const macs = new Map<string, HmacSha256>();
function macFor(key: string): HmacSha256 {
  let mac = macs.get(key);
  if (!mac) {
    if (macs.size >= 16) macs.clear();
    mac = new HmacSha256(key);
    macs.set(key, mac);
  }
  return mac;
}

export function signToken(key: string, t: SignedTuple): string {
  return macFor(key).digest(canonicalString(t), 'base64url');
}

/**
 * True when any of the keys produced the token; every key is tried, each in constant time. The encoded strings are
 * compared (not the decoded bytes), so the unused low bits of the last character cannot make a second valid token.
 */
export function verifyToken(keys: readonly string[], t: SignedTuple, token: string): boolean {
  if (!TOKEN.test(token)) return false;
  const given = Buffer.from(token, 'latin1');
  const canonical = canonicalString(t);
  let ok = false;
  for (const key of keys) {
    const expected = Buffer.from(macFor(key).digest(canonical, 'base64url'), 'latin1');
    if (timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

export function signedUrl(baseUrl: string, key: string, t: SignedTuple): string {
  const s = signToken(key, t);
  return (
    `${baseUrl.replace(/\/+$/, '')}/api/storage/signed?a=${encodeURIComponent(t.account)}&p=${encodeURIComponent(t.provider)}` +
    `&f=${encodeURIComponent(t.filename)}&e=${t.expiresAt}&s=${s}`
  );
}

/**
 * `exact`: `e` is written as this service writes it. `e=01700000000` names the same instant, but it is not the URL
 * that was signed (the token covers the URL's text), so it fails as a bad signature, like any other edit.
 */
export type ParsedSignedQuery =
  | { ok: true; tuple: SignedTuple; token: string; exact: boolean }
  | {
      ok: false;
      detail: string;
      partial: { account: string | null; provider: string | null; filename: string | null; expiresAt: number | null };
    };

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const SIGNED_PARAMS = new Set(['a', 'p', 'f', 'e', 's']);

/**
 * The signed parameters whose raw text is not valid percent-encoded UTF-8 (`f=%ZZ`, `f=%FF`). The query parser
 * keeps a broken escape as text and turns bad UTF-8 into U+FFFD, so a malformed URL would otherwise be judged by
 * its signature (403) instead of being refused as malformed (400).
 */
export function malformedSignedParams(rawQuery: string): string[] {
  const bad: string[] = [];
  for (const part of rawQuery.split('&')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!SIGNED_PARAMS.has(name)) continue;
    try {
      decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      bad.push(name);
    }
  }
  return bad;
}

/** `rawQuery`: the query string as sent (after `?`), to refuse broken encodings. */
export function parseSignedQuery(query: Record<string, unknown>, rawQuery = ''): ParsedSignedQuery {
  const a = single(query, 'a');
  const p = single(query, 'p');
  const f = single(query, 'f');
  const e = single(query, 'e');
  const s = single(query, 's');
  const expiresAt = e !== undefined && EXPIRY.test(e) ? Number(e) : null;
  const partial = { account: a ?? null, provider: p ?? null, filename: f ?? null, expiresAt };
  const missing = (['a', 'p', 'f', 'e', 's'] as const).filter((n) => single(query, n) === undefined);
  if (missing.length > 0)
    return { ok: false, detail: `Missing or repeated query parameter: ${missing.join(', ')}`, partial };
  const broken = malformedSignedParams(rawQuery);
  if (broken.length > 0) return { ok: false, detail: `Not valid percent-encoded UTF-8: ${broken.join(', ')}`, partial };
  if (expiresAt === null) return { ok: false, detail: 'e must be the expiry in Unix seconds', partial };
  if (expiresAt > LAST_EXPIRY)
    return { ok: false, detail: 'e is after 9999-12-31T23:59:59Z: no URL of this service lives that long', partial };
  const bad = filenameProblem(f!);
  if (bad) return { ok: false, detail: `f is not a valid filename: ${bad}`, partial };
  // A token of the wrong length or alphabet is not malformed (400) but simply wrong (403): verifyToken refuses it.
  return {
    ok: true,
    tuple: { account: a!, provider: p!, filename: f!, expiresAt },
    token: s!,
    exact: e === String(expiresAt),
  };
}
