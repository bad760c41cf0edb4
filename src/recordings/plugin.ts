// The recordings domain: the registry's routes, and the editor's asset URLs (signed by whatever plugin decorates the
// app with an `assetSigner`: the storage domain's; without one the editor gets `assets: null`).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { compressed } from '../http/compression.js';
import { recordingAssetsRoute } from './assets-route.js';
import { recordingRoutes } from './routes.js';

export const recordingsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compressed(recordingRoutes));
    await app.register(recordingAssetsRoute);
  },
  { name: 'sightline-recordings', fastify: '5.x', dependencies: ['sightline-auth'] },
);
