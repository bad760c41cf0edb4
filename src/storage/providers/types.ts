// What every storage backend offers the routes: a native presigned URL, and a read for service-signed URLs.
import type { Readable } from 'node:stream';
import type { ConditionalHeaders } from '../http-range.js';

export const PROVIDER_TYPES = ['fs', 's3', 'azure', 'gcs'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ReadRequest extends ConditionalHeaders {
  method: 'GET' | 'HEAD';
  /** Aborted when the client goes away; the provider stops reading. */
  signal: AbortSignal;
}

/** 200, 206 or 304 with the representation headers; errors are thrown as ApiError. */
export interface ReadResponse {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body?: Readable;
}

/** An upload: the bytes, their exact length (backends want Content-Length) and type. */
export interface PutRequest {
  body: Readable;
  size: number;
  contentType: string;
}
export interface PutResult {
  etag: string | undefined;
}

export interface StorageProvider {
  readonly name: string;
  readonly type: ProviderType;
  /**
   * The backend's own presigned GET URL, or undefined when it has none (fs: the service signs instead). Every part of
   * it that varies from call to call (the filename, dates, lifetimes, the signature) is percent-encoded: only the
   * provider's fixed parts (its endpoint) can hold a character that JSON escapes, so one URL that needs no escaping
   * vouches for all of the provider's URLs (issue.ts relies on it).
   */
  nativeUrl(filename: string, expiresAt: number, now: number): string | undefined;
  read(filename: string, request: ReadRequest): Promise<ReadResponse>;
  /** Uploads for tools and tests (`sightline storage put`); the public API never writes. */
  put(filename: string, request: PutRequest): Promise<PutResult>;
  /** Removes the object; a missing object is not an error. */
  delete(filename: string): Promise<void>;
}
