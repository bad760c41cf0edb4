// Azure Blob Storage: native URLs are read-only service SAS URLs (signed version 2020-12-06).
import { ApiError } from '../../http/problem.js';
import { readThroughUrl } from './remote-read.js';
import { sendThroughUrl } from './remote-write.js';
import { uriEncode } from './sigv4.js';
import { HmacSha256 } from '../hmac-sha256.js';
import type { PutRequest, ReadRequest, StorageProvider } from './types.js';

export const AZURE_SAS_VERSION = '2020-12-06';

export interface AzureSettings {
  account: string;
  container: string;
  endpoint?: string;
}
export interface AzureSecret {
  accountKey: string;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The service SAS string-to-sign for a blob, read permission, no optional fields. */
export function azureStringToSign(
  account: string,
  container: string,
  blob: string,
  permissions: string,
  expiry: string,
): string {
  return [
    permissions,
    '',
    expiry,
    `/blob/${account}/${container}/${blob}`,
    '',
    '',
    '',
    AZURE_SAS_VERSION,
    'b',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
  ].join('\n');
}

/** Account, key and endpoint from `DefaultEndpointsProtocol=…;AccountName=…;AccountKey=…;BlobEndpoint=…`. */
export function parseConnectionString(
  text: string,
): { account: string; accountKey: string; endpoint?: string } | undefined {
  const parts = new Map<string, string>();
  for (const piece of text.split(';')) {
    const eq = piece.indexOf('=');
    if (eq > 0) parts.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
  }
  const account = parts.get('AccountName');
  const accountKey = parts.get('AccountKey');
  if (!account || !accountKey) return undefined;
  const blobEndpoint = parts.get('BlobEndpoint');
  const suffix = parts.get('EndpointSuffix');
  const protocol = parts.get('DefaultEndpointsProtocol') ?? 'https';
  const endpoint = blobEndpoint ?? (suffix ? `${protocol}://${account}.blob.${suffix}` : undefined);
  // The portal's own strings name the public cloud (`EndpointSuffix=core.windows.net`): that is no endpoint of its
  // own, and must not count as one (the admin API refuses endpoints to non-operators).
  const isDefault =
    endpoint?.replace(/\/+$/, '').toLowerCase() === `https://${account.toLowerCase()}.blob.core.windows.net`;
  return { account, accountKey, ...(endpoint && !isDefault ? { endpoint } : {}) };
}

export class AzureProvider implements StorageProvider {
  readonly type = 'azure' as const;
  private readonly mac: HmacSha256;

  constructor(
    readonly name: string,
    private settings: AzureSettings,
    secret: AzureSecret,
    private timeoutMs: number,
  ) {
    this.mac = new HmacSha256(Buffer.from(secret.accountKey, 'base64'));
  }

  /** Native URLs are read-only (`r`); `cw` and `d` serve only the CLI's uploads and deletions. */
  presign(filename: string, expiresAtMs: number, permissions: 'r' | 'cw' | 'd' = 'r'): string {
    const { account, container, endpoint } = this.settings;
    const se = isoSeconds(expiresAtMs);
    const toSign = azureStringToSign(account, container, filename, permissions, se);
    const sig = this.mac.digest(toSign, 'base64');
    const base = (endpoint ?? `https://${account}.blob.core.windows.net`).replace(/\/+$/, '');
    // The SDK's parameter order (generateBlobSASQueryParameters), so the URLs are byte-identical.
    const query = `sv=${AZURE_SAS_VERSION}&se=${encodeURIComponent(se)}&sr=b&sp=${permissions}&sig=${encodeURIComponent(sig)}`;
    return `${base}/${uriEncode(container)}/${uriEncode(filename, true)}?${query}`;
  }

  nativeUrl(filename: string, expiresAt: number): string {
    return this.presign(filename, expiresAt * 1000);
  }

  async read(filename: string, request: ReadRequest) {
    const url = this.presign(filename, Date.now() + 300_000);
    // Blob storage has no suffix ranges (`bytes=-N`): it would refuse them, so they become absolute ones here.
    const suffix = /^bytes=-(\d+)$/.exec(request.range?.trim() ?? '');
    const headUrl = () => url; // a read SAS allows HEAD too
    if (!suffix) return readThroughUrl(this.name, url, request, this.timeoutMs, headUrl);
    const head = await readThroughUrl(this.name, url, { method: 'HEAD', signal: request.signal }, this.timeoutMs);
    const size = Number(head.headers['content-length']);
    const length = Number(suffix[1]);
    if (!Number.isSafeInteger(size)) return readThroughUrl(this.name, url, request, this.timeoutMs, headUrl);
    if (size === 0 || length === 0) {
      throw new ApiError(
        416,
        'range_not_satisfiable',
        'The requested range is outside the object',
        { provider: this.name },
        { 'Content-Range': `bytes */${size}` },
      );
    }
    return readThroughUrl(
      this.name,
      url,
      { ...request, range: `bytes=${Math.max(0, size - length)}-${size - 1}` },
      this.timeoutMs,
      headUrl,
    );
  }

  async put(filename: string, request: PutRequest) {
    const { etag } = await sendThroughUrl(this.name, {
      method: 'PUT',
      url: this.presign(filename, Date.now() + 300_000, 'cw'),
      body: request.body,
      timeoutMs: this.timeoutMs,
      headers: {
        'content-length': String(request.size),
        'content-type': request.contentType,
        'x-ms-blob-type': 'BlockBlob',
        'x-ms-version': AZURE_SAS_VERSION,
      },
    });
    return { etag };
  }

  async delete(filename: string) {
    await sendThroughUrl(this.name, {
      method: 'DELETE',
      url: this.presign(filename, Date.now() + 300_000, 'd'),
      headers: { 'x-ms-version': AZURE_SAS_VERSION },
      timeoutMs: this.timeoutMs,
    });
  }
}
