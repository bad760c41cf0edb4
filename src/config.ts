// One typed view of every setting: environment variables first, command-line flags override them.
import { isIP } from 'node:net';
import path from 'node:path';
import { parseDuration } from './util/duration.js';
import { parseExpiry } from './util/expiry.js';
import { DEFAULT_RUN_REVISIONS_KEPT } from './detections/limits.js';

/** The least rate a large request body must keep up (http/minimum-rate.ts enforces it). */
export interface MinimumRate {
  /** Bytes per second the body must average over each window; 0 turns the check off. */
  bytesPerSecond: number;
  windowMs: number;
}

/** Request bodies being read and parsed (run-upload.ts): at most `bytes` at once; a body waits `waitMs` for room. */
export interface BodyBudgetConfig {
  bytes: number;
  waitMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded SQLite store (and the default fs provider's files). */
  dataDir: string;
  /** postgres://… when set; otherwise the embedded SQLite file under dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL: the wait for a connection, and for a statement's answer, before the request fails with 503. */
  database: { connectTimeoutMs: number; queryTimeoutMs: number };
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host count, as Fastify's `trustProxy` takes it: false (none), true (every
   * hop: the client writes the left-most entry), a hop count, or addresses and CIDR ranges. The client address is the
   * right-most untrusted one.
   */
  trustProxy: TrustProxy;
  sessionTtlSeconds: number;
  login: { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number };
  storage: {
    signing: boolean;
    publicUrl: string | undefined;
    /** Hosts a service-signed URL may name when publicUrl is unset; undefined: any (never in production). */
    allowedHosts: string[] | undefined;
    /** A streaming client that takes no byte for this long is dropped. */
    sendIdleTimeoutMs: number;
    urlSigningKeys: string[];
    defaultUriExpirySeconds: number;
    masterKey: string | undefined;
    providerTimeoutMs: number;
  };
  sweepIntervalSeconds: number;
  /** Revisions a run keeps, the current one included; older ones go first (RUN_REVISIONS_KEPT). */
  runRevisionsKept: number;
  evaluation: {
    /** POST /evaluations answers 201 when done within this, else 202 and the work goes on in the background. */
    syncMs: number;
    /** A job's lease: the computing instance renews it; once it lapses (the instance died) any instance resumes it. */
    leaseMs: number;
    /** Test only: evaluations this instance starts stay running, never computed, until it dies. */
    holdForTests: boolean;
  };
  shutdownGraceMs: number;
  /** The Prometheus listener: port undefined (the default) turns it off; 0 takes any free port. */
  metrics: { port: number | undefined; host: string };
  /** A POST /detections body over 8 MiB (or chunked past it) holds a scarce turn: it must arrive at least this fast. */
  largeUploadMinimumRate: MinimumRate;
  bodyBudget: BodyBudgetConfig;
  editor: {
    /** Accounts that sign the editor's asset URLs, each organisation's own (names are unique service-wide); none → blank canvas. */
    storageAccounts: string[];
    /** Lifetime of the asset URLs handed to the browser. */
    assetUriExpirySeconds: number;
    /** Folder of the built editor (index.html + assets/); defaults to dist/web of the package. */
    webDir: string | undefined;
  };
}

/** What TRUST_PROXY may say (a subset of what Fastify's `trustProxy` takes). */
export type TrustProxy = boolean | number | string[];

export type Flags = Record<string, string | boolean | undefined>;

/** Node runs a timer of more milliseconds than this after 1 ms instead: a huge timeout would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The longest a session or a login window may be: past a year it is a typo, and far past it no date at all. */
const YEAR_SECONDS = 365 * 86_400;

/**
 * An integer setting within [min, max]. Each caller sets min: 0 only where it means something (off, any port);
 * elsewhere 0 would break the server silently, so it is refused at start, with why.
 */
function int(
  value: string | boolean | undefined,
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  why = '',
): number {
  if (value === undefined || value === '' || typeof value === 'boolean') return fallback;
  // Digits only: Number() would read " " as 0 and "0x10" or "1e3" as numbers nobody meant.
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new Error(`${name} must be an integer ${range}, got "${value}"${why ? ` (${why})` : ''}`);
  }
  return n;
}

function bool(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false (or 1/0, yes/no, on/off), got "${value}"`);
}

// proxy-addr's names for ranges, beside literal addresses and CIDR ranges.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: a boolean, a hop count (1: the one proxy in front; 0 is none), or a comma-separated list of addresses,
 * CIDR ranges and proxy-addr's range names. Anything else is refused at start: a typo must not trust every hop.
 */
function trustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  if (/^(true|yes|on)$/i.test(text)) return true;
  if (/^(false|no|off)$/i.test(text)) return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 255) throw new Error(`TRUST_PROXY as a hop count must be at most 255, got "${value}"`);
    return hops === 0 ? false : hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.includes(entry)) continue;
    const [addr = '', prefix, extra] = entry.split('/');
    const family = isIP(addr);
    const bits = family === 4 ? 32 : 128;
    const validPrefix =
      prefix === undefined ||
      (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits) ||
      (family === 4 && isIP(prefix) === 4);
    if (family === 0 || !validPrefix || extra !== undefined) {
      throw new Error(
        `TRUST_PROXY must be true, false, a hop count, or comma-separated addresses and CIDR ranges (such as 10.0.0.0/8, 192.168.1.5, loopback); "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

function str(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Signed URLs are this base plus `/api/storage/signed?…`: a query, fragment or user part would swallow or bend them. */
function publicBaseUrl(setting: string | undefined): string | undefined {
  // Spaces around it (a line of an .env file, a mounted secret's newline) are no part of it. Inside, URL parsing
  // would drop tabs and newlines that the signed URLs, built from the text, would then carry.
  const value = setting?.trim();
  if (value === undefined || value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    /* refused below */
  }
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.search ||
    url.hash ||
    url.username ||
    url.password ||
    /[?#\s\x00-\x1f\x7f]/.test(value)
  ) {
    // The value is echoed without what could be a credential: its user part, query and fragment.
    const shown = value
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, (_m, scheme?: string) => `${scheme ?? ''}…@`)
      .replace(/[?#].*$/s, '?…');
    throw new Error(
      `STORAGE_PUBLIC_URL must be an http(s) URL with no query, fragment, credentials or spaces, such as https://media.example.com; got ${JSON.stringify(shown)}`,
    );
  }
  return value.replace(/\/+$/, '');
}

function databaseUrl(value: string | undefined): string | undefined {
  if (value !== undefined && !/^postgres(ql)?:\/\//.test(value)) {
    throw new Error(
      'the database URL (--database-url / DATABASE_URL) must start with postgres:// (or leave it unset for the embedded store)',
    );
  }
  return value;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function logLevel(value: string): string {
  if (!LOG_LEVELS.includes(value))
    throw new Error(`the log level (--log-level / LOG_LEVEL) must be one of ${LOG_LEVELS.join(', ')}; got "${value}"`);
  return value;
}

function editorExpiry(value: string | undefined): number {
  if (value === undefined || value === '') return 3600;
  const seconds = parseExpiry(value.trim());
  if (seconds === undefined) {
    throw new Error(`EDITOR_URI_EXPIRY_TIME must be 1s to 7d, such as 1h; got "${value}"`);
  }
  return seconds;
}

/** What a command sets apart from the service's defaults (the demo logs at warn); explicit settings still win. */
export interface ConfigDefaults {
  logLevel?: string;
}

export function loadConfig(
  flags: Flags = {},
  env: NodeJS.ProcessEnv = process.env,
  defaults: ConfigDefaults = {},
): Config {
  const expiry = env.DEFAULT_URI_EXPIRY_TIME?.trim();
  // The same forms and bounds as a request's uriExpiryTime: a default no request could ask for is refused at start.
  const defaultUriExpirySeconds = expiry === undefined || expiry === '' ? 86_400 : parseExpiry(expiry);
  if (defaultUriExpirySeconds === undefined) {
    throw new Error(
      `DEFAULT_URI_EXPIRY_TIME must be 1 to 604800 seconds, as seconds or a duration such as 30m, 1h, 7d; got "${expiry}"`,
    );
  }
  const sessionTtl = parseDuration(env.SESSION_TTL?.trim() || '12h');
  // 0 would hand out sessions that are dead on arrival.
  if (sessionTtl === undefined || sessionTtl <= 0)
    throw new Error(`SESSION_TTL must be a positive duration such as 12h, got "${env.SESSION_TTL}"`);
  // Past a year a session is no session; far beyond, its expiry is no date at all (every login answered 500).
  if (sessionTtl > YEAR_SECONDS) throw new Error(`SESSION_TTL must be at most 365d, got "${env.SESSION_TTL}"`);
  const config: Config = {
    // 0: any free port (the printed URL shows which).
    port: int(flags.port ?? env.PORT, 'the port (--port / PORT)', 8080, 0, 65_535),
    host: str(flags.host) ?? str(env.HOST) ?? '127.0.0.1',
    dataDir: path.resolve(str(flags.data) ?? str(env.SIGHTLINE_DATA) ?? './data'),
    databaseUrl: databaseUrl(str(flags['database-url']) ?? str(env.DATABASE_URL)),
    database: {
      connectTimeoutMs: int(
        env.DATABASE_CONNECT_TIMEOUT_MS,
        'DATABASE_CONNECT_TIMEOUT_MS',
        10_000,
        1,
        MAX_TIMER_MS,
        '0 would fail every request',
      ),
      queryTimeoutMs: int(
        env.DATABASE_QUERY_TIMEOUT_MS,
        'DATABASE_QUERY_TIMEOUT_MS',
        30_000,
        1,
        MAX_TIMER_MS,
        '0 would fail every request',
      ),
    },
    logLevel: logLevel(str(flags['log-level']) ?? str(env.LOG_LEVEL) ?? defaults.logLevel ?? 'info'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    sessionTtlSeconds: sessionTtl,
    login: {
      maxFailuresPerUser: int(
        env.LOGIN_MAX_FAILURES_PER_USER,
        'LOGIN_MAX_FAILURES_PER_USER',
        5,
        1,
        undefined,
        '0 would refuse every login',
      ),
      maxFailuresPerAddress: int(
        env.LOGIN_MAX_FAILURES_PER_ADDRESS,
        'LOGIN_MAX_FAILURES_PER_ADDRESS',
        20,
        1,
        undefined,
        '0 would refuse every login',
      ),
      windowSeconds: int(
        env.LOGIN_WINDOW_SECONDS,
        'LOGIN_WINDOW_SECONDS',
        900,
        1,
        YEAR_SECONDS,
        '0 would turn login throttling off',
      ),
    },
    storage: {
      signing: bool(env.STORAGE_SIGNING, 'STORAGE_SIGNING', false),
      publicUrl: publicBaseUrl(str(env.STORAGE_PUBLIC_URL)),
      // In production a Host is never trusted by default: a forged one would sign URLs that lead elsewhere.
      allowedHosts: str(env.STORAGE_ALLOWED_HOSTS)
        ? env.STORAGE_ALLOWED_HOSTS!.split(',').flatMap((h) => (h.trim() ? [h.trim().toLowerCase()] : []))
        : env.NODE_ENV === 'production'
          ? []
          : undefined,
      urlSigningKeys: (env.STORAGE_URL_SIGNING_KEY ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
      defaultUriExpirySeconds,
      masterKey: str(env.SIGHTLINE_MASTER_KEY),
      providerTimeoutMs: int(
        env.STORAGE_PROVIDER_TIMEOUT_MS,
        'STORAGE_PROVIDER_TIMEOUT_MS',
        10_000,
        1,
        MAX_TIMER_MS,
        '0 would time out every streamed download',
      ),
      // 0 turns the idle limit off (a socket timeout of 0 is none): a client may then hold a stream for ever.
      sendIdleTimeoutMs: int(env.STORAGE_SEND_IDLE_TIMEOUT_MS, 'STORAGE_SEND_IDLE_TIMEOUT_MS', 60_000, 0, MAX_TIMER_MS),
    },
    // At least 1: the current content is a revision too, and the list always shows it.
    runRevisionsKept: int(env.RUN_REVISIONS_KEPT, 'RUN_REVISIONS_KEPT', DEFAULT_RUN_REVISIONS_KEPT, 1, 10_000),
    // 0 turns the sweeper off; the interval is a timer in ms.
    sweepIntervalSeconds: int(
      env.SWEEP_INTERVAL_SECONDS,
      'SWEEP_INTERVAL_SECONDS',
      300,
      0,
      Math.floor(MAX_TIMER_MS / 1000),
    ),
    evaluation: {
      // 0: every POST answers 202 at once.
      syncMs: int(env.EVALUATION_SYNC_MS, 'EVALUATION_SYNC_MS', 5000, 0, MAX_TIMER_MS),
      leaseMs: int(
        env.EVALUATION_LEASE_MS,
        'EVALUATION_LEASE_MS',
        30_000,
        100,
        MAX_TIMER_MS,
        'a shorter lease would lapse between two renewals',
      ),
      holdForTests: bool(env.SIGHTLINE_TEST_HOLD_EVALUATIONS, 'SIGHTLINE_TEST_HOLD_EVALUATIONS', false),
    },
    shutdownGraceMs: int(
      env.SHUTDOWN_GRACE_MS,
      'SHUTDOWN_GRACE_MS',
      10_000,
      1,
      MAX_TIMER_MS,
      '0 would exit at once with an error, draining nothing',
    ),
    metrics: {
      port: str(env.METRICS_PORT) === undefined ? undefined : int(env.METRICS_PORT, 'METRICS_PORT', 0, 0, 65_535),
      host: str(env.METRICS_HOST?.trim()) ?? '127.0.0.1',
    },
    largeUploadMinimumRate: {
      // 100 KiB/s: a 32 MiB run then takes at most about 5 minutes, the request timeout, anyway.
      bytesPerSecond: int(
        env.LARGE_UPLOAD_MIN_BYTES_PER_SECOND,
        'LARGE_UPLOAD_MIN_BYTES_PER_SECOND',
        102_400,
        0,
        1024 ** 3,
      ),
      windowMs: int(env.LARGE_UPLOAD_RATE_WINDOW_MS, 'LARGE_UPLOAD_RATE_WINDOW_MS', 10_000, 100, MAX_TIMER_MS),
    },
    bodyBudget: {
      bytes: int(env.BODY_MEMORY_BUDGET_BYTES, 'BODY_MEMORY_BUDGET_BYTES', 24 * 1024 * 1024, 1024 * 1024, 1024 ** 4),
      waitMs: int(env.BODY_BUDGET_WAIT_MS, 'BODY_BUDGET_WAIT_MS', 10_000, 0, MAX_TIMER_MS),
    },
    editor: {
      storageAccounts: [
        ...new Set(
          (str(env.EDITOR_STORAGE_ACCOUNT) ?? '')
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        ),
      ],
      assetUriExpirySeconds: editorExpiry(env.EDITOR_URI_EXPIRY_TIME),
      webDir: str(env.SIGHTLINE_WEB_DIR) === undefined ? undefined : path.resolve(env.SIGHTLINE_WEB_DIR!),
    },
  };
  // Operators' numbers (routes, pool use) on the port every client reaches would be a map for an attacker.
  if (config.metrics.port !== undefined && config.metrics.port !== 0 && config.metrics.port === config.port) {
    throw new Error(`METRICS_PORT must differ from the public port (${config.port}): metrics are never served there`);
  }
  return config;
}
