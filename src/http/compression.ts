// The only routes that compress are those a domain registers through `compressed` (see send-json.ts): the
// compression plugin's per-route hook stays off every other route.
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { constants as zlib } from 'node:zlib';

/** A scope with compression on (br or gzip from 2 KiB, when the client asks) around `routes`. */
export function compressed(routes: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope: FastifyInstance) => {
    await scope.register(compress, {
      global: false,
      threshold: 2048,
      encodings: ['br', 'gzip'],
      // Brotli's default quality (11) costs seconds on a 30 MiB run; 4 keeps most of the gain.
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 5 },
    });
    await scope.register(routes);
  };
}
