// The sweeper inside `serve`: once at start, then every SWEEP_INTERVAL_SECONDS (0 turns it off).
// A sweep still running when the next is due is not doubled; errors are logged and retried next time.
import type { FastifyInstance } from 'fastify';
import { sweepExpired } from './sweeper.js';

export function retentionJob(app: FastifyInstance): (() => void) | void {
  const seconds = app.config.sweepIntervalSeconds;
  if (seconds <= 0) return;
  let running = false;
  let stopped = false;
  const log = app.log.child({ job: 'retention' });
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      const started = Date.now();
      const r = await sweepExpired(app.store, { log: (fields, message) => log.info(fields, message) });
      if (r.runsRemoved + r.recordingsRemoved + r.recordingsEmptied + r.sessionsRemoved > 0) {
        log.info({ ...r, ms: Date.now() - started }, 'retention sweep done');
      }
    } catch (err) {
      if (!stopped) log.error({ err }, 'retention sweep failed; retrying at the next interval');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(tick, 1000);
  const timer = setInterval(tick, seconds * 1000);
  first.unref();
  timer.unref();
  return () => { stopped = true; clearTimeout(first); clearInterval(timer); };
}
