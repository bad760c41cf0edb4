// Amazon S3 and S3-compatible stores (MinIO, R2, …): native URLs are SigV4 query-presigned.
import { isIP } from 'node:net';
import { PresignedUrlProvider, type PresignMethod } from './presigned-provider.js';
import { SigV4Signer, uriEncode } from './sigv4.js';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  pathStyle: boolean;
}
export interface S3Secret {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export class S3Provider extends PresignedUrlProvider {
  readonly type = 's3' as const;
  // Where objects live, worked out once: only the key changes from URL to URL.
  private readonly pathPrefix: string;
  private readonly signer: SigV4Signer;

  constructor(name: string, settings: S3Settings, secret: S3Secret, timeoutMs: number) {
    super(name, timeoutMs);
    const { bucket, region, endpoint } = settings;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    // An IP address or localhost has no subdomains for a virtual-hosted bucket (`http://bucket.127.0.0.1:9000` is
    // no URL): such an endpoint (a local MinIO) is addressed path-style, as the AWS SDK does too.
    const pathStyle =
      settings.pathStyle || isIP(base.hostname.replace(/^\[|\]$/g, '')) !== 0 || base.hostname === 'localhost';
    const basePath = base.pathname.replace(/\/+$/, '');
    this.pathPrefix = pathStyle ? `${basePath}/${uriEncode(bucket)}/` : `${basePath}/`;
    this.signer = new SigV4Signer({
      origin: pathStyle ? base.origin : `${base.protocol}//${bucket}.${base.host}`,
      region,
      service: 's3',
      accessKeyId: secret.accessKeyId,
      secretAccessKey: secret.secretAccessKey,
      sessionToken: secret.sessionToken,
      layout: 'sdk',
    });
  }

  presign(method: PresignMethod, filename: string, expiresIn: number, now: number): string {
    return this.signer.presign(method, this.pathPrefix + uriEncode(filename, true), expiresIn, now);
  }
}
