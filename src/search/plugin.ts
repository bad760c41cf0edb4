// The search domain: region search over the recordings' detection centroids. It depends on recordings, never the
// other way; the index it searches is written by the detections domain's run writers.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { compressed } from '../http/compression.js';
import { searchRoutes } from './routes.js';

export const searchPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compressed(searchRoutes));
  },
  { name: 'sightline-search', fastify: '5.x', dependencies: ['sightline-auth', 'sightline-recordings'] },
);
