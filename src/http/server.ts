// A listening server with its store, and graceful shutdown: stop accepting, finish in-flight requests, close the store.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { openStore, type Store } from '../db/store.js';
import { buildApp, type AppOptions } from './app.js';
import { tuneGarbageCollector } from '../runtime/gc-tuning.js';
import { pinTickObjectShape } from '../runtime/tick-shape.js';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  close(): Promise<void>;
}

export async function startServer(config: Config, logger?: AppOptions['logger']): Promise<RunningServer> {
  tuneGarbageCollector();
  // Already done by the `sightline` binary before anything loaded; here for servers started from code.
  pinTickObjectShape();
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...config.database });
  let migrated: string[];
  try {
    migrated = await migrateToLatest(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, store, logger, backgroundJobs: true });
  } catch (err) {
    // A refusal to start (a missing signing key…) exits at once: an open pool would hold the process for its idle
    // timeout first.
    await store.close();
    throw err;
  }
  if (migrated.length > 0) app.log.info({ migrations: migrated }, 'the store was migrated');
  if (config.trustProxy === true) {
    // Every hop trusted: the left-most X-Forwarded-For entry, which any client writes, becomes its address.
    app.log.warn(
      'TRUST_PROXY=true takes the client address from the left-most X-Forwarded-For entry, which clients can forge: name the proxies (a hop count or their addresses) instead',
    );
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Closing the app stops its background jobs (their plugins' onClose), the WAL checkpointer's last pass included.
    await app.close();
    await store.close();
    // Node names the system call (`listen EADDRINUSE: address already in use 127.0.0.1:8080`), not the setting.
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use'
        : code === 'EACCES'
          ? 'the port needs privileges'
          : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? 'no interface of this machine has that address'
            : (err as Error).message;
    throw new Error(
      `cannot listen on --host ${config.host} --port ${config.port} (HOST / PORT): ${why}${code && !why.includes(code) ? ` (${code})` : ''}`,
      { cause: err },
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    url: `http://${host}:${port}`,
    close() {
      closing ??= (async () => {
        // Closing stops new connections; the connections it has go once idle (draining.ts), not at their
        // keep-alive timeout (72 s, longer than any grace period). Then the background jobs stop (onClose).
        await app.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** SIGTERM/SIGINT: drain, then exit; a second signal or the grace period forces the exit. */
export function closeOnSignals(server: RunningServer, graceMs: number): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      server.app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
