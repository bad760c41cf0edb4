// Amazon S3 and S3-compatible stores (MinIO, R2, …): native URLs are SigV4 query-presigned.
import { PresignedUrlProvider, type PresignMethod } from './presigned-provider.js';
import { presignV4, uriEncode } from './sigv4.js';

export interface S3Settings { bucket: string; region: string; endpoint?: string; pathStyle: boolean }
export interface S3Secret { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

export class S3Provider extends PresignedUrlProvider {
  readonly type = 's3' as const;
  // Where objects live, worked out once: only the key changes from URL to URL.
  private readonly origin: string;
  private readonly pathPrefix: string;

  constructor(name: string, private settings: S3Settings, private secret: S3Secret, timeoutMs: number) {
    super(name, timeoutMs);
    const { bucket, region, endpoint, pathStyle } = settings;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const basePath = base.pathname.replace(/\/+$/, '');
    this.origin = pathStyle ? base.origin : `${base.protocol}//${bucket}.${base.host}`;
    this.pathPrefix = pathStyle ? `${basePath}/${uriEncode(bucket)}/` : `${basePath}/`;
  }

  private location(filename: string): { origin: string; path: string } {
    return { origin: this.origin, path: this.pathPrefix + uriEncode(filename, true) };
  }

  presign(method: PresignMethod, filename: string, expiresIn: number, now: number): string {
    return presignV4({
      method, ...this.location(filename), region: this.settings.region, service: 's3',
      accessKeyId: this.secret.accessKeyId, secretAccessKey: this.secret.secretAccessKey, sessionToken: this.secret.sessionToken,
      expiresIn, now, layout: 'sdk',
    });
  }
}
