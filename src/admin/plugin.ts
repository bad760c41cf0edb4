// The administration domain: /admin/… for an organisation's owners and admins, and the public redemption of
// invitations. Its operations (users.ts, tokens.ts, organisation.ts, storage.ts) are the CLI's too.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './routes.js';

export const adminPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(adminRoutes);
  },
  { name: 'sightline-admin', fastify: '5.x', dependencies: ['sightline-auth'] },
);
