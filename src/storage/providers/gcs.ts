// Google Cloud Storage: native URLs are V4 signed URLs (GOOG4-RSA-SHA256) made with a service-account key.
import { createHash, createSign } from 'node:crypto';
import { readThroughUrl } from './remote-read.js';
import { sendThroughUrl } from './remote-write.js';
import { amzDate, uriEncode } from './sigv4.js';
import type { PutRequest, ReadRequest, StorageProvider } from './types.js';

export interface GcsSettings { bucket: string; clientEmail: string; endpoint?: string }
export interface GcsSecret { privateKey: string }

export interface GcsCanonical { canonicalRequest: string; stringToSign: string; query: string; origin: string; path: string }

export function gcsCanonical(settings: GcsSettings, method: string, filename: string, expiresIn: number, now: number): GcsCanonical {
  const base = new URL(settings.endpoint ?? 'https://storage.googleapis.com');
  const date = amzDate(now);
  const scope = `${date.slice(0, 8)}/auto/storage/goog4_request`;
  const path = `${base.pathname.replace(/\/+$/, '')}/${uriEncode(settings.bucket)}/${uriEncode(filename, true)}`;
  const query = [
    ['X-Goog-Algorithm', 'GOOG4-RSA-SHA256'],
    ['X-Goog-Credential', `${settings.clientEmail}/${scope}`],
    ['X-Goog-Date', date],
    ['X-Goog-Expires', String(expiresIn)],
    ['X-Goog-SignedHeaders', 'host'],
  ].map(([k, v]) => `${uriEncode(k!)}=${uriEncode(v!)}`).sort().join('&');
  const canonicalRequest = [method, path, query, `host:${base.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['GOOG4-RSA-SHA256', date, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  return { canonicalRequest, stringToSign, query, origin: base.origin, path };
}

export class GcsProvider implements StorageProvider {
  readonly type = 'gcs' as const;
  constructor(readonly name: string, private settings: GcsSettings, private secret: GcsSecret, private timeoutMs: number) {}

  presign(method: 'GET' | 'HEAD' | 'PUT' | 'DELETE', filename: string, expiresIn: number, now: number): string {
    const c = gcsCanonical(this.settings, method, filename, expiresIn, now);
    const signature = createSign('RSA-SHA256').update(c.stringToSign).sign(this.secret.privateKey, 'hex');
    return `${c.origin}${c.path}?${c.query}&X-Goog-Signature=${signature}`;
  }

  nativeUrl(filename: string, expiresAt: number, now: number): string {
    return this.presign('GET', filename, Math.max(1, expiresAt - Math.floor(now / 1000)), now);
  }

  read(filename: string, request: ReadRequest) {
    return readThroughUrl(this.name, this.presign(request.method, filename, 300, Date.now()), request, this.timeoutMs);
  }

  async put(filename: string, request: PutRequest) {
    const { etag } = await sendThroughUrl(this.name, {
      method: 'PUT', url: this.presign('PUT', filename, 300, Date.now()), body: request.body, timeoutMs: this.timeoutMs,
      headers: { 'content-length': String(request.size), 'content-type': request.contentType },
    });
    return { etag };
  }

  async delete(filename: string) {
    await sendThroughUrl(this.name, { method: 'DELETE', url: this.presign('DELETE', filename, 300, Date.now()), headers: {}, timeoutMs: this.timeoutMs });
  }
}
