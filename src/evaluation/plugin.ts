// The evaluation domain: /evaluations, and the computing of the evaluations this instance starts. Resuming other
// instances' lapsed evaluations is the job runner's (runner-plugin.ts), registered by `serve` only.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { compressed } from '../http/compression.js';
import { type EvaluationJobs, evaluationJobs } from './jobs.js';
import { evaluationRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    evaluationJobs: EvaluationJobs;
  }
}

export const evaluationPlugin = fp(
  async (app: FastifyInstance) => {
    const jobs = evaluationJobs(app.store, app.config, app.log.child({ job: 'evaluation' }));
    app.decorate('evaluationJobs', jobs);
    app.addHook('onClose', async () => {
      await jobs.close();
    });
    await app.register(compressed(evaluationRoutes));
  },
  {
    name: 'sightline-evaluation',
    fastify: '5.x',
    dependencies: ['sightline-auth', 'sightline-recordings', 'sightline-detections'],
  },
);
