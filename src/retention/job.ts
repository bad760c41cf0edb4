// The sweeper inside `serve`: every SWEEP_INTERVAL_SECONDS (0 turns it off), the first one an interval after start:
// a restarted fleet does not sweep all at once, and what a setup script registered just before `serve` started is
// not swept from under the first requests (`sightline admin sweep` sweeps at once).
// A sweep still running when the next is due is not doubled; errors are logged and retried next time.
import type { FastifyInstance } from 'fastify';
import { sweepExpired } from './sweeper.js';
import { sweeperRemovals, sweeperRuns } from '../http/metrics.js';

export function retentionJob(app: FastifyInstance): (() => void) | undefined {
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
      sweeperRuns.inc({ outcome: 'ok' });
      sweeperRemovals.inc({ kind: 'runs' }, r.runsRemoved);
      sweeperRemovals.inc({ kind: 'recordings' }, r.recordingsRemoved);
      sweeperRemovals.inc({ kind: 'recordings_emptied' }, r.recordingsEmptied);
      sweeperRemovals.inc({ kind: 'sessions' }, r.sessionsRemoved);
      sweeperRemovals.inc({ kind: 'login_counters' }, r.loginCountersRemoved);
      sweeperRemovals.inc({ kind: 'audit_entries' }, r.auditEntriesRemoved);
      if (
        r.runsRemoved +
          r.recordingsRemoved +
          r.recordingsEmptied +
          r.sessionsRemoved +
          r.loginCountersRemoved +
          r.auditEntriesRemoved >
        0
      ) {
        log.info({ ...r, ms: Date.now() - started }, 'retention sweep done');
      }
    } catch (err) {
      if (!stopped) {
        sweeperRuns.inc({ outcome: 'failed' });
        log.error({ err }, 'retention sweep failed; retrying at the next interval');
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, seconds * 1000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
