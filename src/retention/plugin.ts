// The retention sweeper inside a server: started once the app is ready, stopped when it closes.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { retentionJob } from './job.js';

export const retentionPlugin = fp(
  async (app: FastifyInstance) => {
    let stop: (() => void) | undefined;
    app.addHook('onReady', async () => {
      stop = retentionJob(app);
    });
    app.addHook('onClose', async () => {
      stop?.();
    });
  },
  { name: 'sightline-retention', fastify: '5.x' },
);
