// The detections domain: runs per recording, and a recording read with its runs. It depends on recordings (a run
// belongs to one), never the other way.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { compressed } from '../http/compression.js';
import { recordingWithRunsRoute } from './recording-route.js';
import { detectionRoutes } from './routes.js';

export const detectionsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(
      compressed(async (scope) => {
        await scope.register(detectionRoutes);
        await scope.register(recordingWithRunsRoute);
      }),
    );
  },
  { name: 'sightline-detections', fastify: '5.x', dependencies: ['sightline-auth', 'sightline-recordings'] },
);
