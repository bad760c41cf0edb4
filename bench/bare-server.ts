// The floor every HTTP benchmark is compared with: a bare Fastify app on the same machine doing the
// least the real route must do (receive the bytes and JSON.parse them, or answer a constant).
// Pinned as the service pins it (src/runtime/tick-shape.ts): without it, about half of these processes ran nextTick
// through V8's runtime and answered at 21-22 µs of CPU a request instead of 16-17, and the floor itself was a lottery.
import { pinTickObjectShape } from '../src/runtime/tick-shape.js';

pinTickObjectShape();
const { default: Fastify } = await import('fastify');

const port = Number(process.argv[2] ?? 0);
const constant = process.argv[3] ?? '{"data":"x"}';
const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
  try {
    done(null, JSON.parse(body as string));
  } catch (err) {
    done(err as Error, undefined);
  }
});
app.post('/parse', async (request) => ({ ok: typeof request.body === 'object' }));
app.get('/constant', async (_request, reply) => reply.type('application/json; charset=utf-8').send(constant));
app.post('/constant', async (_request, reply) => reply.type('application/json; charset=utf-8').send(constant));
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
