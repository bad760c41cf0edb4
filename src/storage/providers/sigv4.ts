// AWS Signature Version 4 query presigning (S3 and compatibles), and the RFC 3986 encoding it needs. Pure.
import { hash } from 'node:crypto';
import { HmacSha256 } from '../hmac-sha256.js';

// Keys made only of unreserved characters and "/" (most recordings' keys) need no encoding at all.
const PLAIN = /^[A-Za-z0-9\-._~/]*$/;

/** S3 URI encoding: everything but unreserved characters, keeping "/" in paths. */
export function uriEncode(text: string, keepSlash = false): string {
  if (PLAIN.test(text) && (keepSlash || !text.includes('/'))) return text;
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

// The one-shot crypto.hash (Node ≥ 20.12; the package needs 20.19) skips a Hash object per URL.
const sha256hex = (s: string) => hash('sha256', s, 'hex');

let lastSecond = -1;
let lastDate = '';
/** 20240305T060708Z; a bulk call asks for the same second a thousand times, so the last answer is kept. */
export function amzDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastDate = new Date(second * 1000)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    lastSecond = second;
  }
  return lastDate;
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

export interface SigV4Credential {
  /** e.g. https://bucket.s3.eu-west-1.amazonaws.com */
  origin: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /**
   * `sdk`: the AWS SDK presigner's exact layout — X-Amz-Content-Sha256=UNSIGNED-PAYLOAD hoisted into the signed
   * query and every parameter, the signature included, in sorted order. `documented` (default): the layout of
   * AWS's published example, signature last. S3 accepts both; the provider uses `sdk`.
   */
  layout?: 'sdk' | 'documented';
}

export interface PresignInput extends SigV4Credential {
  method: string;
  /** The already-encoded absolute path, e.g. /bucket/a%20b.mp4 */
  path: string;
  expiresIn: number;
  now: number;
}

interface QueryParts {
  query: string;
  head: string;
  tail: string;
}
const byName = ([a]: readonly [string, string], [b]: readonly [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Presigns URLs for one credential. What depends only on the day (the derived key), or on the second and the
 * lifetime (the scope and the signed query), is worked out once and reused by every URL that shares it: a bulk
 * call signs a thousand URLs in the same second with the same lifetime.
 */
export class SigV4Signer {
  private readonly host: string;
  private day = '';
  private mac: HmacSha256 | undefined;
  private date = '';
  private scope = '';
  // The signed query of the current second, by lifetime: a bulk call may mix a few lifetimes.
  private readonly queries = new Map<number, QueryParts>();

  constructor(private readonly credential: SigV4Credential) {
    this.host = hostOf(credential.origin);
  }

  presign(method: string, path: string, expiresIn: number, now: number): string {
    const date = amzDate(now);
    if (date !== this.date) this.newSecond(date);
    let q = this.queries.get(expiresIn);
    if (q === undefined) {
      if (this.queries.size >= 64) this.queries.clear();
      q = this.signedQuery(date, expiresIn);
      this.queries.set(expiresIn, q);
    }
    const canonical = `${method}\n${path}\n${q.query}\nhost:${this.host}\n\nhost\nUNSIGNED-PAYLOAD`;
    const signature = this.mac!.digest(`AWS4-HMAC-SHA256\n${date}\n${this.scope}\n${sha256hex(canonical)}`, 'hex');
    return `${this.credential.origin}${path}?${q.head}${signature}${q.tail}`;
  }

  private newSecond(date: string): void {
    const { region, service, secretAccessKey } = this.credential;
    const day = date.slice(0, 8);
    if (day !== this.day) {
      // The derived signing key changes once a day: four HMACs saved per URL.
      let key = new HmacSha256(`AWS4${secretAccessKey}`).digestBytes(day);
      for (const part of [region, service, 'aws4_request']) key = new HmacSha256(key).digestBytes(part);
      this.mac = new HmacSha256(key);
      this.day = day;
      this.scope = `${day}/${region}/${service}/aws4_request`;
    }
    this.date = date;
    this.queries.clear();
  }

  private signedQuery(date: string, expiresIn: number): QueryParts {
    const { accessKeyId, sessionToken, layout } = this.credential;
    const params: Array<[string, string]> = [
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Credential', `${accessKeyId}/${this.scope}`],
      ['X-Amz-Date', date],
      ['X-Amz-Expires', String(expiresIn)],
      ['X-Amz-SignedHeaders', 'host'],
    ];
    if (sessionToken) params.push(['X-Amz-Security-Token', sessionToken]);
    if (layout === 'sdk') params.push(['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD']);
    const encoded = params.map(([k, v]) => [uriEncode(k), uriEncode(v)] as const).sort(byName);
    const join = (list: ReadonlyArray<readonly [string, string]>) => list.map(([k, v]) => `${k}=${v}`).join('&');
    if (layout !== 'sdk') return { query: join(encoded), head: `${join(encoded)}&X-Amz-Signature=`, tail: '' };
    // Sorted with the signature among them: it lands right before X-Amz-SignedHeaders.
    const at = encoded.findIndex(([k]) => k > 'X-Amz-Signature');
    return {
      query: join(encoded),
      head: `${join(encoded.slice(0, at))}&X-Amz-Signature=`,
      tail: `&${join(encoded.slice(at))}`,
    };
  }
}

/** One URL, for callers that sign once (tests against published vectors): providers keep a SigV4Signer. */
export function presignV4(input: PresignInput): string {
  return new SigV4Signer(input).presign(input.method, input.path, input.expiresIn, input.now);
}
