// Prometheus metrics on a listener of their own (METRICS_PORT; off by default), never on the public port: what a
// scrape shows (routes, pool use, sweeps) is for operators, not for every client. The app counts requests only when
// the listener is on, so that a server without it pays nothing per request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { httpRequestDuration, httpRequests, registry, watchPool } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** http://host:port of the metrics listener once the app listens; undefined when it is off. */
    metricsUrl: string | undefined;
  }
}

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('metricsUrl', undefined);
    const settings = app.config.metrics;
    if (settings.port === undefined) return;

    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern, never the path: ids in paths would make a series per object.
      const route = request.routeOptions.url ?? 'unmatched';
      httpRequests.inc({ method: request.method, route, status: reply.statusCode });
      httpRequestDuration.observe({ route }, reply.elapsedTime / 1000);
      done();
    });

    const pool = app.store.pgPool;
    const unwatch = pool
      ? watchPool({ inUse: () => pool.totalCount - pool.idleCount, waiting: () => pool.waitingCount })
      : undefined;

    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end('Not found: the metrics are at GET /metrics\n');
        return;
      }
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': registry.contentType, 'X-Content-Type-Options': 'nosniff' });
          res.end(text);
        },
        (err: unknown) => {
          app.log.error({ err }, 'metrics collection failed');
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('metrics collection failed\n');
        },
      );
    });
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) =>
          reject(
            new Error(
              `cannot listen for metrics on --metrics-host ${settings.host} port ${settings.port} (METRICS_HOST / METRICS_PORT): ${err.message}`,
              { cause: err },
            ),
          ),
        );
        server.listen(settings.port, settings.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
      app.metricsUrl = `http://${host}:${port}`;
      app.log.info({ url: `${app.metricsUrl}/metrics` }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      unwatch?.();
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  },
  { name: 'sightline-metrics', fastify: '5.x' },
);
