// The auth domain: login and logout, and the caller of each request (set by authenticate.ts's hooks).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Principal } from './queries.js';
import { authRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('principal', undefined);
    await app.register(authRoutes);
  },
  { name: 'sightline-auth', fastify: '5.x' },
);
