// POST /api/storage/bulk answers `{"data": "<JSON text>"}`: the map of filename to URL is encoded twice (a shape older
// consumers of the route rely on). signedUrls answers the map itself.
import type { Client, FetchResponse } from 'openapi-fetch';
import type { paths } from './api.js';

type BulkOperation = paths['/api/storage/bulk']['post'];

/** One file to sign: its key, and optionally the provider and lifetime (seconds or a duration such as `30m`). */
export type SignedUrlRequest = BulkOperation['requestBody']['content']['application/json'][number];

/** A storage account's credentials, as the account's creation or rotation printed them. */
export interface StorageAccountKeys {
  accessKey: string;
  secretAccessKey: string;
}

type BulkResult = FetchResponse<BulkOperation, object, `${string}/${string}`>;

/** The route's answer with `data` decoded: filename → URL, or the route's problem in `error`. */
export type SignedUrlsResult =
  | { data: Record<string, string>; error?: never; response: Response }
  | { data?: never; error: NonNullable<BulkResult['error']>; response: Response };

export async function signedUrls(
  client: Client<paths>,
  account: StorageAccountKeys,
  files: SignedUrlRequest[],
  init: { signal?: AbortSignal } = {},
): Promise<SignedUrlsResult> {
  const { data, error, response } = await client.POST('/api/storage/bulk', {
    body: files,
    headers: {
      'X-Service-Storage-AccessKey': account.accessKey,
      'X-Service-Storage-SecretAccessKey': account.secretAccessKey,
    },
    ...init,
  });
  if (data === undefined) return { error: error as NonNullable<BulkResult['error']>, response };
  return { data: JSON.parse(data.data) as Record<string, string>, response };
}
