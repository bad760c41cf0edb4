// One typed view of every setting: environment variables first, command-line flags override them.
import path from 'node:path';
import { parseDuration } from './util/duration.js';
import { parseExpiry } from './storage/expiry.js';

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded SQLite store (and the default fs provider's files). */
  dataDir: string;
  /** postgres://… when set; otherwise the embedded SQLite file under dataDir. */
  databaseUrl: string | undefined;
  logLevel: string;
  sessionTtlSeconds: number;
  login: { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number };
  storage: {
    signing: boolean;
    publicUrl: string | undefined;
    /** A streaming client that takes no byte for this long is dropped. */
    sendIdleTimeoutMs: number;
    urlSigningKeys: string[];
    defaultUriExpirySeconds: number;
    masterKey: string | undefined;
    providerTimeoutMs: number;
  };
  sweepIntervalSeconds: number;
  shutdownGraceMs: number;
  editor: {
    /** Storage account (of the caller's organisation) that signs the editor's asset URLs; none → blank canvas. */
    storageAccount: string | undefined;
    /** Lifetime of the asset URLs handed to the browser. */
    assetUriExpirySeconds: number;
    /** Folder of the built editor (index.html + assets/); defaults to dist/web of the package. */
    webDir: string | undefined;
  };
}

export type Flags = Record<string, string | boolean | undefined>;

function int(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '' || typeof value === 'boolean') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function bool(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function str(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Signed URLs are this base plus `/api/storage/signed?…`: a query, fragment or user part would swallow or bend them. */
function publicBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try { url = new URL(value); } catch { /* refused below */ }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password || value.includes('?') || value.includes('#')) {
    throw new Error(`STORAGE_PUBLIC_URL must be an http(s) URL with no query, fragment or credentials, such as https://media.example.com; got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function logLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) throw new Error(`the log level (--log-level / LOG_LEVEL) must be one of ${LOG_LEVELS.join(', ')}; got "${value}"`);
  return value;
}

function editorExpiry(value: string | undefined): number {
  if (value === undefined || value === '') return 3600;
  const seconds = parseDuration(value.trim());
  if (seconds === undefined || seconds < 1 || seconds > 604_800) {
    throw new Error(`EDITOR_URI_EXPIRY_TIME must be 1s to 7d, such as 1h; got "${value}"`);
  }
  return seconds;
}

export function loadConfig(flags: Flags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const expiry = env.DEFAULT_URI_EXPIRY_TIME?.trim();
  // The same forms and bounds as a request's uriExpiryTime: a default no request could ask for is refused at start.
  const defaultUriExpirySeconds = expiry === undefined || expiry === '' ? 86_400 : parseExpiry(expiry);
  if (defaultUriExpirySeconds === undefined) {
    throw new Error(`DEFAULT_URI_EXPIRY_TIME must be 1 to 604800 seconds, as seconds or a duration such as 30m, 1h, 7d; got "${expiry}"`);
  }
  const sessionTtl = parseDuration((env.SESSION_TTL ?? '12h').trim());
  // 0 would hand out sessions that are dead on arrival.
  if (sessionTtl === undefined || sessionTtl <= 0) throw new Error(`SESSION_TTL must be a positive duration such as 12h, got "${env.SESSION_TTL}"`);
  return {
    port: int(flags.port ?? env.PORT, 'port', 8080),
    host: str(flags.host) ?? str(env.HOST) ?? '127.0.0.1',
    dataDir: path.resolve(str(flags.data) ?? str(env.SIGHTLINE_DATA) ?? './data'),
    databaseUrl: str(flags['database-url']) ?? str(env.DATABASE_URL),
    logLevel: logLevel(str(flags['log-level']) ?? str(env.LOG_LEVEL) ?? 'info'),
    sessionTtlSeconds: sessionTtl,
    login: {
      maxFailuresPerUser: int(env.LOGIN_MAX_FAILURES_PER_USER, 'LOGIN_MAX_FAILURES_PER_USER', 5),
      maxFailuresPerAddress: int(env.LOGIN_MAX_FAILURES_PER_ADDRESS, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20),
      windowSeconds: int(env.LOGIN_WINDOW_SECONDS, 'LOGIN_WINDOW_SECONDS', 900),
    },
    storage: {
      signing: bool(env.STORAGE_SIGNING, 'STORAGE_SIGNING', false),
      publicUrl: publicBaseUrl(str(env.STORAGE_PUBLIC_URL)),
      urlSigningKeys: (env.STORAGE_URL_SIGNING_KEY ?? '').split(',').map((k) => k.trim()).filter(Boolean),
      defaultUriExpirySeconds,
      masterKey: str(env.SIGHTLINE_MASTER_KEY),
      providerTimeoutMs: int(env.STORAGE_PROVIDER_TIMEOUT_MS, 'STORAGE_PROVIDER_TIMEOUT_MS', 10_000),
      sendIdleTimeoutMs: int(env.STORAGE_SEND_IDLE_TIMEOUT_MS, 'STORAGE_SEND_IDLE_TIMEOUT_MS', 60_000),
    },
    sweepIntervalSeconds: int(env.SWEEP_INTERVAL_SECONDS, 'SWEEP_INTERVAL_SECONDS', 300),
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 'SHUTDOWN_GRACE_MS', 10_000),
    editor: {
      storageAccount: str(env.EDITOR_STORAGE_ACCOUNT),
      assetUriExpirySeconds: editorExpiry(env.EDITOR_URI_EXPIRY_TIME),
      webDir: str(env.SIGHTLINE_WEB_DIR) === undefined ? undefined : path.resolve(env.SIGHTLINE_WEB_DIR!),
    },
  };
}
