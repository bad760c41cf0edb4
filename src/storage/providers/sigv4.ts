// AWS Signature Version 4 query presigning (S3 and compatibles), and the RFC 3986 encoding it needs. Pure.
import { createHmac, hash } from 'node:crypto';

/** S3 URI encoding: everything but unreserved characters, keeping "/" in paths. */
export function uriEncode(text: string, keepSlash = false): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(keepSlash ? /%2F/g : /$^/, '/');
}

// The one-shot crypto.hash (Node ≥ 20.12; the package needs 20.19) skips a Hash object per URL.
const sha256hex = (s: string) => hash('sha256', s, 'hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

let lastSecond = -1;
let lastDate = '';
/** 20240305T060708Z; a bulk call asks for the same second a thousand times, so the last answer is kept. */
export function amzDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastDate = new Date(second * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    lastSecond = second;
  }
  return lastDate;
}

// The derived signing key changes once a day per credential and scope: four HMACs saved per URL.
const signingKeys = new Map<string, Buffer>();
function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  const id = `${day}\n${region}\n${service}\n${secretAccessKey}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = hmac(`AWS4${secretAccessKey}`, day);
    for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
    if (signingKeys.size >= 256) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

const hosts = new Map<string, string>();
function hostOf(origin: string): string {
  let host = hosts.get(origin);
  if (host === undefined) {
    host = new URL(origin).host;
    if (hosts.size >= 256) hosts.clear();
    hosts.set(origin, host);
  }
  return host;
}

export interface PresignInput {
  method: string;
  /** e.g. https://bucket.s3.eu-west-1.amazonaws.com */
  origin: string;
  /** The already-encoded absolute path, e.g. /bucket/a%20b.mp4 */
  path: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiresIn: number;
  now: number;
  /**
   * `sdk`: the AWS SDK presigner's exact layout — X-Amz-Content-Sha256=UNSIGNED-PAYLOAD hoisted into the signed
   * query and every parameter, the signature included, in sorted order. `documented` (default): the layout of
   * AWS's published example, signature last. S3 accepts both; the provider uses `sdk`.
   */
  layout?: 'sdk' | 'documented';
}

interface QueryParts { query: string; head: string; tail: string }
const byName = ([a]: readonly [string, string], [b]: readonly [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

// The signed query depends on the second, lifetime and credential, not on the key: a bulk call builds it once.
const queries = new Map<string, QueryParts>();
function queryParts(input: PresignInput, date: string, scope: string): QueryParts {
  const id = `${input.layout ?? ''}\n${date}\n${input.expiresIn}\n${input.accessKeyId}\n${scope}\n${input.sessionToken ?? ''}`;
  const hit = queries.get(id);
  if (hit) return hit;
  const params: Array<[string, string]> = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${input.accessKeyId}/${scope}`],
    ['X-Amz-Date', date],
    ['X-Amz-Expires', String(input.expiresIn)],
    ['X-Amz-SignedHeaders', 'host'],
  ];
  if (input.sessionToken) params.push(['X-Amz-Security-Token', input.sessionToken]);
  if (input.layout === 'sdk') params.push(['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD']);
  const encoded = params.map(([k, v]) => [uriEncode(k), uriEncode(v)] as const).sort(byName);
  const join = (list: ReadonlyArray<readonly [string, string]>) => list.map(([k, v]) => `${k}=${v}`).join('&');
  let parts: QueryParts;
  if (input.layout === 'sdk') {
    // Sorted with the signature among them: it lands right before X-Amz-SignedHeaders.
    const at = encoded.findIndex(([k]) => k > 'X-Amz-Signature');
    parts = { query: join(encoded), head: `${join(encoded.slice(0, at))}&X-Amz-Signature=`, tail: `&${join(encoded.slice(at))}` };
  } else {
    parts = { query: join(encoded), head: `${join(encoded)}&X-Amz-Signature=`, tail: '' };
  }
  if (queries.size >= 256) queries.clear();
  queries.set(id, parts);
  return parts;
}

export function presignV4(input: PresignInput): string {
  const date = amzDate(input.now);
  const scope = `${date.slice(0, 8)}/${input.region}/${input.service}/aws4_request`;
  const host = hostOf(input.origin);
  const q = queryParts(input, date, scope);
  const canonical = `${input.method}\n${input.path}\n${q.query}\nhost:${host}\n\nhost\nUNSIGNED-PAYLOAD`;
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${sha256hex(canonical)}`;
  const key = signingKey(input.secretAccessKey, date.slice(0, 8), input.region, input.service);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `${input.origin}${input.path}?${q.head}${signature}${q.tail}`;
}
