// Amazon S3 and S3-compatible stores (MinIO, R2, …): native URLs are SigV4 query-presigned.
import { readThroughUrl } from './remote-read.js';
import { sendThroughUrl } from './remote-write.js';
import { presignV4, uriEncode } from './sigv4.js';
import type { PutRequest, ReadRequest, StorageProvider } from './types.js';

export interface S3Settings { bucket: string; region: string; endpoint?: string; pathStyle: boolean }
export interface S3Secret { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

export class S3Provider implements StorageProvider {
  readonly type = 's3' as const;
  // Where objects live, worked out once: only the key changes from URL to URL.
  private readonly origin: string;
  private readonly pathPrefix: string;

  constructor(readonly name: string, private settings: S3Settings, private secret: S3Secret, private timeoutMs: number) {
    const { bucket, region, endpoint, pathStyle } = settings;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const basePath = base.pathname.replace(/\/+$/, '');
    this.origin = pathStyle ? base.origin : `${base.protocol}//${bucket}.${base.host}`;
    this.pathPrefix = pathStyle ? `${basePath}/${uriEncode(bucket)}/` : `${basePath}/`;
  }

  private location(filename: string): { origin: string; path: string } {
    return { origin: this.origin, path: this.pathPrefix + uriEncode(filename, true) };
  }

  presign(method: 'GET' | 'HEAD' | 'PUT' | 'DELETE', filename: string, expiresIn: number, now: number): string {
    return presignV4({
      method, ...this.location(filename), region: this.settings.region, service: 's3',
      accessKeyId: this.secret.accessKeyId, secretAccessKey: this.secret.secretAccessKey, sessionToken: this.secret.sessionToken,
      expiresIn, now, layout: 'sdk',
    });
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
