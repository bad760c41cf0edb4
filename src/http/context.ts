// What every route can reach: the store and the configuration (the auth plugin adds the caller, auth/plugin.ts).
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    config: Config;
  }
  interface FastifyRequest {
    apiVersion: string;
    /** The problem's `code` when the answer is an error, for the access line. */
    problemCode?: string;
  }
}
