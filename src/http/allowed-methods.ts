// Which methods a path answers to, for 405 Method Not Allowed with its Allow header (RFC 9110 §15.5.6): a request
// with the wrong method on a real path is told what would work instead of hearing that nothing is there.
// Fastify's router answers per method only, so the routes are mirrored into a router of our own as they are added.
import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export type AllowedMethods = (url: string) => string[];

/** Call before any route is added: later routes are seen through the onRoute hook. */
export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 1024 });
  app.addHook('onRoute', (route) => {
    const methods = new Set([route.method].flat().map((m) => m.toUpperCase()));
    if (methods.has('GET') && route.exposeHeadRoute !== false) methods.add('HEAD');
    for (const method of methods) {
      if (!(METHODS as readonly string[]).includes(method) || router.hasRoute(method as 'GET', route.url)) continue;
      router.on(method as 'GET', route.url, () => {});
    }
  });
  return (url) => METHODS.filter((m) => router.find(m, url) !== null);
}
