// The detections domain: runs per recording, a recording read with its runs, and runs in and out of the file formats
// of other tools. It depends on recordings (a run belongs to one), never the other way.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { compressed } from '../http/compression.js';
import { formatRoutes } from './format-routes.js';
import { recordingWithRunsRoute } from './recording-route.js';
import { detectionRoutes } from './routes.js';
import { runUploadOptions } from './run-upload.js';

export const detectionsPlugin = fp(
  async (app: FastifyInstance) => {
    // One for both upload routes: a run posted as JSON and one imported from a file wait for the same turns.
    const uploads = runUploadOptions(app.config.largeUploadMinimumRate, app.config.bodyBudget);
    await app.register(
      compressed(async (scope) => {
        await scope.register(detectionRoutes, { uploads });
        await scope.register(formatRoutes, { uploads });
        await scope.register(recordingWithRunsRoute);
      }),
    );
  },
  { name: 'sightline-detections', fastify: '5.x', dependencies: ['sightline-auth', 'sightline-recordings'] },
);
