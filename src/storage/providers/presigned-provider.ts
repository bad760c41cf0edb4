// Backends whose every operation goes through a URL the service presigns for itself (S3 SigV4, GCS V4):
// only the signing differs, so reading, uploading and deleting live here once.
import { readThroughUrl } from './remote-read.js';
import { sendThroughUrl } from './remote-write.js';
import type { ProviderType, PutRequest, ReadRequest, StorageProvider } from './types.js';

export type PresignMethod = 'GET' | 'HEAD' | 'PUT' | 'DELETE';

/** Lifetime of the URLs the service signs for its own reads and writes. */
const INTERNAL_URL_SECONDS = 300;

export abstract class PresignedUrlProvider implements StorageProvider {
  abstract readonly type: ProviderType;

  constructor(
    readonly name: string,
    protected readonly timeoutMs: number,
  ) {}

  abstract presign(method: PresignMethod, filename: string, expiresIn: number, now: number): string;

  nativeUrl(filename: string, expiresAt: number, now: number): string {
    return this.presign('GET', filename, Math.max(1, expiresAt - Math.floor(now / 1000)), now);
  }

  read(filename: string, request: ReadRequest) {
    return readThroughUrl(
      this.name,
      this.presign(request.method, filename, INTERNAL_URL_SECONDS, Date.now()),
      request,
      this.timeoutMs,
      () => this.presign('HEAD', filename, INTERNAL_URL_SECONDS, Date.now()),
    );
  }

  async put(filename: string, request: PutRequest) {
    const { etag } = await sendThroughUrl(this.name, {
      method: 'PUT',
      url: this.presign('PUT', filename, INTERNAL_URL_SECONDS, Date.now()),
      body: request.body,
      timeoutMs: this.timeoutMs,
      headers: { 'content-length': String(request.size), 'content-type': request.contentType },
    });
    return { etag };
  }

  async delete(filename: string) {
    await sendThroughUrl(this.name, {
      method: 'DELETE',
      url: this.presign('DELETE', filename, INTERNAL_URL_SECONDS, Date.now()),
      headers: {},
      timeoutMs: this.timeoutMs,
    });
  }
}
