// What every route can reach: the store and the configuration, plus the caller once authenticated.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { Principal } from '../auth/queries.js';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    config: Config;
  }
  interface FastifyRequest {
    principal?: Principal;
    apiVersion: string;
    /** The problem's `code` when the answer is an error, for the access line. */
    problemCode?: string;
  }
}
