// The storage domain as one Fastify plugin; it refuses to start rather than sign with a missing key.
import type { FastifyInstance } from 'fastify';
import { storageAdminRoutes } from './admin-routes.js';
import { installAssetSigner } from './asset-signer.js';
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

export async function storageRoutes(app: FastifyInstance): Promise<void> {
  await assertSigningConfigured(app);
  app.decorateRequest('storageAccount', undefined);
  installAssetSigner();
  await app.register(storageUrlRoutes);
  await app.register(signedRoutes);
  await app.register(storageAdminRoutes);
}
