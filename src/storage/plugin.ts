// The storage domain as one Fastify plugin; it refuses to start rather than sign with a missing key. It offers the
// editor's asset signer to the recordings domain as the `assetSigner` decorator.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { storageAdminRoutes } from './admin-routes.js';
import { signAssets } from './asset-signer.js';
import { fsProviderExists, type Account } from './queries.js';
import { storageUrlRoutes } from './routes.js';
import { signedRoutes } from './signed-routes.js';
import { signingKeys } from './signing-keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    storageAccount?: Account;
  }
}

export async function assertSigningConfigured(app: FastifyInstance): Promise<void> {
  if (signingKeys(app.config).length > 0) return;
  if (app.config.storage.signing)
    throw new Error('STORAGE_SIGNING=true needs STORAGE_URL_SIGNING_KEY (the server does not sign with a default key)');
  if (await fsProviderExists(app.store.db)) {
    throw new Error(
      'an fs storage provider exists, and its URLs are service-signed: set STORAGE_URL_SIGNING_KEY (the server does not sign with a default key)',
    );
  }
}

export const storagePlugin = fp(
  async (app: FastifyInstance) => {
    await assertSigningConfigured(app);
    app.decorateRequest('storageAccount', undefined);
    app.decorate('assetSigner', signAssets);
    await app.register(storageUrlRoutes);
    await app.register(signedRoutes);
    await app.register(storageAdminRoutes);
  },
  { name: 'sightline-storage', fastify: '5.x', dependencies: ['sightline-auth'] },
);
