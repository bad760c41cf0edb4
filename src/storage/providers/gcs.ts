// Google Cloud Storage: native URLs are V4 signed URLs (GOOG4-RSA-SHA256) made with a service-account key.
import { createHash, createSign } from 'node:crypto';
import { PresignedUrlProvider, type PresignMethod } from './presigned-provider.js';
import { amzDate, uriEncode } from './sigv4.js';

export interface GcsSettings {
  bucket: string;
  clientEmail: string;
  endpoint?: string;
}
export interface GcsSecret {
  privateKey: string;
}

export interface GcsCanonical {
  canonicalRequest: string;
  stringToSign: string;
  query: string;
  origin: string;
  path: string;
}

export function gcsCanonical(
  settings: GcsSettings,
  method: string,
  filename: string,
  expiresIn: number,
  now: number,
): GcsCanonical {
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
  ]
    .map(([k, v]) => `${uriEncode(k!)}=${uriEncode(v!)}`)
    .sort()
    .join('&');
  const canonicalRequest = [method, path, query, `host:${base.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = [
    'GOOG4-RSA-SHA256',
    date,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  return { canonicalRequest, stringToSign, query, origin: base.origin, path };
}

export class GcsProvider extends PresignedUrlProvider {
  readonly type = 'gcs' as const;
  constructor(
    name: string,
    private settings: GcsSettings,
    private secret: GcsSecret,
    timeoutMs: number,
  ) {
    super(name, timeoutMs);
  }

  presign(method: PresignMethod, filename: string, expiresIn: number, now: number): string {
    const c = gcsCanonical(this.settings, method, filename, expiresIn, now);
    const signature = createSign('RSA-SHA256').update(c.stringToSign).sign(this.secret.privateKey, 'hex');
    return `${c.origin}${c.path}?${c.query}&X-Goog-Signature=${signature}`;
  }
}
