// Turning (account, provider, filename, lifetime) into the URL a client gets, in either signing mode.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/problem.js';
import { directoryAllowed } from './filename.js';
import type { Account, ProviderRow } from './queries.js';
import { providersNamed } from './row-cache.js';
import { providerFromRow } from './registry.js';
import { signingKeys } from './signing-keys.js';
import { signedUrl } from './url-token.js';
import type { StorageProvider } from './providers/types.js';
import { andThen, type MaybePromise } from '../util/maybe-promise.js';

/**
 * The named providers if all are bound to the account and enabled; 401 provider_not_allowed naming the others.
 * Without a promise when the row cache holds them all.
 */
export function providersFor(
  app: FastifyInstance,
  account: Account,
  names: string[],
): MaybePromise<Map<string, StorageProvider>> {
  // One name (every single-URL request, most bulk ones): no set, no filtering.
  const unique = names.length === 1 ? names : [...new Set(names)];
  const rows = providersNamed(
    app.store,
    account.orgId,
    unique.filter((n) => account.providers.includes(n)),
  );
  return andThen(rows, (r) => usableProviders(app, account, unique, r));
}

function usableProviders(
  app: FastifyInstance,
  account: Account,
  names: string[],
  rows: ProviderRow[],
): Map<string, StorageProvider> {
  const out = new Map<string, StorageProvider>();
  for (const row of rows) if (row.enabled === 1) out.set(row.name, providerFromRow(app.config, row));
  if (out.size !== names.length) {
    const refused = names.filter((n) => !out.has(n));
    // What the account may use instead, as directory_not_allowed lists its directories (a disabled one is left out
    // when it was asked for; others are bound, and may be disabled).
    const allowedProviders = account.providers.filter((n) => !refused.includes(n));
    throw new ApiError(
      401,
      'provider_not_allowed',
      `The account may not use provider${refused.length > 1 ? 's' : ''} ${refused.map((n) => `"${n}"`).join(', ')}`,
      { provider: refused[0], providers: refused, allowedProviders },
    );
  }
  return out;
}

export function assertDirectories(account: Account, filenames: string[]): void {
  const denied = filenames.filter((f) => !directoryAllowed(account.directories, f));
  if (denied.length > 0) {
    throw new ApiError(
      403,
      'directory_not_allowed',
      `The account may not use ${denied.length > 1 ? 'these files' : `"${denied[0]}"`}: outside its directories`,
      { filenames: denied, directories: account.directories },
    );
  }
}

// A DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port: nothing that could end the
// authority and start a path, query, fragment or user part of the URL built from it.
const HOST = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The base of service-signed URLs: STORAGE_PUBLIC_URL, else the address the client used. A Host (or, behind a
 * trusted proxy, X-Forwarded-Host/-Proto) that is not one is refused (RFC 9112 §3.2: 400) rather than copied
 * into a URL the client will follow; one outside STORAGE_ALLOWED_HOSTS (in production: any, unless that list is
 * set) is refused with 421, since a forged Host would make the service sign links to another server.
 */
export function publicBaseUrl(request: FastifyRequest): string {
  const configured = request.server.config.storage.publicUrl;
  if (configured !== undefined) return configured;
  const { protocol, host } = request;
  // Several Host headers never get here (app.ts refuses them on every route); a forwarded host may still be no host.
  if (typeof host !== 'string' || !HOST.test(host) || (protocol !== 'http' && protocol !== 'https')) {
    throw new ApiError(400, 'bad_request', 'The Host header is not a host name or address with an optional port');
  }
  const allowed = request.server.config.storage.allowedHosts;
  if (allowed !== undefined && !allowed.includes(host.toLowerCase())) {
    throw new ApiError(
      421,
      'host_not_allowed',
      allowed.length === 0
        ? 'Service-signed URLs need STORAGE_PUBLIC_URL (or STORAGE_ALLOWED_HOSTS) in production: the Host header is not trusted'
        : `The Host "${host}" is not in STORAGE_ALLOWED_HOSTS, so no service-signed URL names it`,
      { host },
    );
  }
  return `${protocol}://${host}`;
}

// Printable ASCII but `"` and `\`: text that JSON writes as it is, however many times it is encoded.
export const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

// Providers one of whose native URLs was JSON-plain: their varying parts are percent-encoded (StorageProvider.nativeUrl),
// so all their URLs are. Scanning every 370-character URL cost ~0.36 µs, ~1.5 µs of a bulk call of four.
const plainProviders = new WeakSet<StorageProvider>();

/**
 * One per request: the signing key and base URL are resolved once for a whole bulk call. A class, not a closure
 * with properties: a property defined on a new function per request made V8 build new maps per request.
 */
export class Issuer {
  /** Every URL issued so far is JSON-plain: printable ASCII without `"` or `\`, written into JSON as it is. */
  plain = true;
  private readonly now = Date.now();
  private readonly nowSeconds = Math.floor(this.now / 1000);
  private key: string | undefined;
  private base: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly account: Account,
    private readonly baseUrl: () => string,
  ) {}

  issue(provider: StorageProvider, filename: string, seconds: number): string {
    const config = this.app.config;
    const expiresAt = this.nowSeconds + seconds;
    if (!config.storage.signing) {
      const native = provider.nativeUrl(filename, expiresAt, this.now);
      if (native !== undefined) {
        if (this.plain && !plainProviders.has(provider)) {
          if (JSON_PLAIN.test(native)) plainProviders.add(provider);
          else this.plain = false;
        }
        return native;
      }
    }
    this.key ??= signingKeys(config)[0];
    if (this.key === undefined) {
      throw new ApiError(
        502,
        'provider_error',
        `Provider "${provider.name}" needs service-signed URLs but STORAGE_URL_SIGNING_KEY is not set`,
        { provider: provider.name },
      );
    }
    if (this.base === undefined) {
      this.base = this.baseUrl();
      // The rest of a service-signed URL is percent-encoded or base64url (signedUrl).
      if (!JSON_PLAIN.test(this.base)) this.plain = false;
    }
    return signedUrl(this.base, this.key, { account: this.account.name, provider: provider.name, filename, expiresAt });
  }
}

export function issuerFor(app: FastifyInstance, account: Account, baseUrl: () => string): Issuer {
  return new Issuer(app, account, baseUrl);
}
