// The evaluation job runner inside a server: looks for evaluations whose instance died (their lease lapsed) and
// computes them, one at a time, from the app's start to its close. Registered with the other background jobs.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const evaluationRunnerPlugin = fp(
  async (app: FastifyInstance) => {
    // Half a lease: a lapsed job waits at most that long for a taker, and an idle instance asks twice per lease.
    const pollMs = Math.min(10_000, Math.max(50, Math.floor(app.config.evaluation.leaseMs / 2)));
    const log = app.log.child({ job: 'evaluation-runner' });
    let timer: NodeJS.Timeout | undefined;
    let busy = false;
    let stopped = false;
    const look = async () => {
      if (busy || stopped) return;
      busy = true;
      try {
        while (!stopped && (await app.evaluationJobs.resumeOne()));
      } catch (err) {
        if (!stopped) log.error({ err }, 'looking for lapsed evaluations failed; looking again later');
      } finally {
        busy = false;
      }
    };
    app.addHook('onReady', async () => {
      timer = setInterval(look, pollMs);
      timer.unref();
      void look();
    });
    app.addHook('onClose', async () => {
      stopped = true;
      clearInterval(timer);
    });
  },
  { name: 'sightline-evaluation-runner', fastify: '5.x', dependencies: ['sightline-evaluation'] },
);
