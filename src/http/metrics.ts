// The process's Prometheus metrics (prom-client), served by their own listener (metrics-listener.ts), never on the
// public port. One registry for the process: a module's gauge is set where the thing it counts happens (the body
// budget, the large-body turns, the sweeper), without threading a handle through every plugin. Several apps in one
// process (tests) share it; what belongs to one app (its database pool) is read from the apps registered below.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

export const httpRequests = new Counter({
  name: 'sightline_http_requests_total',
  help: 'Answered HTTP requests, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'sightline_http_request_duration_seconds',
  help: 'Time from the request to its answer, by route pattern',
  labelNames: ['route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Request body bytes being read or parsed, process-wide (the body memory budget sets it). */
export const bodyBytesInFlight = new Gauge({
  name: 'sightline_body_bytes_in_flight',
  help: 'Request body bytes being read or parsed',
  registers: [registry],
});

/** Large-body turns held by POST /detections bodies over 8 MiB (detections/run-upload.ts sets it). */
export const largeBodyTurnsInUse = new Gauge({
  name: 'sightline_large_body_turns_in_use',
  help: 'Large-body turns held by request bodies being read',
  registers: [registry],
});

export const sweeperRuns = new Counter({
  name: 'sightline_sweeper_runs_total',
  help: 'Retention sweeps run by this process, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const sweeperRemovals = new Counter({
  name: 'sightline_sweeper_removals_total',
  help: 'Rows the retention sweeper removed, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const loginFailures = new Counter({
  name: 'sightline_login_failures_total',
  help: 'Logins refused for a wrong username or password',
  registers: [registry],
});

export const loginThrottled = new Counter({
  name: 'sightline_login_throttled_total',
  help: 'Logins refused untried (429), by the key that was over its limit',
  labelNames: ['scope'] as const,
  registers: [registry],
});

export const usernamesOverLimit = new Counter({
  name: 'sightline_login_username_alerts_total',
  help: 'Times a username passed LOGIN_MAX_FAILURES_PER_USER failures within the window, from all addresses together',
  registers: [registry],
});

/** What a database pool reports; SQLite has none (one connection, never waited for). */
export interface PoolGauge {
  inUse(): number;
  waiting(): number;
}

const pools = new Set<PoolGauge>();

/** Counts a pool in the pool gauges until the returned function is called (its app closes). */
export function watchPool(pool: PoolGauge): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

new Gauge({
  name: 'sightline_db_pool_in_use',
  help: 'Database connections checked out (PostgreSQL)',
  registers: [registry],
  collect() {
    let n = 0;
    for (const pool of pools) n += pool.inUse();
    this.set(n);
  },
});

new Gauge({
  name: 'sightline_db_pool_waiting',
  help: 'Queries waiting for a database connection (PostgreSQL)',
  registers: [registry],
  collect() {
    let n = 0;
    for (const pool of pools) n += pool.waiting();
    this.set(n);
  },
});

// Memory, CPU, event-loop lag and handles of the process, under their usual names (process_*, nodejs_*).
collectDefaultMetrics({ register: registry });
