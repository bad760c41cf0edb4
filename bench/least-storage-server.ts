// The least `GET /api/storage` and `POST /api/storage/bulk` can do, as a ceiling for their benchmark ratios: a bare
// Fastify app (like the floor) holding one account and one s3 provider in constants. No database or cache check,
// no validation beyond the credentials, no hooks; only what any implementation must do per request: compare the
// secret's digest, sign with SigV4 (the same signer as the service), and answer the spec's `data` with the headers
// the spec puts on every answer. argv: port, access key, secret, then the provider's bucket, region, key id, secret.
import type { FastifyReply } from 'fastify';
import { pinTickObjectShape } from '../src/runtime/tick-shape.js';

// As the floor (bare-server.ts) and the service.
pinTickObjectShape();
const { default: Fastify } = await import('fastify');
const { SigV4Signer, uriEncode } = await import('../src/storage/providers/sigv4.js');
const { sameDigest, secretDigest } = await import('../src/storage/account-secret.js');

const [port, accessKey, secret, bucket, region, keyId, keySecret] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const digest = secretDigest(secret);
const signer = new SigV4Signer({
  origin: `https://${bucket}.s3.${region}.amazonaws.com`,
  region,
  service: 's3',
  accessKeyId: keyId,
  secretAccessKey: keySecret,
  layout: 'sdk',
});
const DAY = 86_400;
const app = Fastify({ logger: false });
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
  try {
    done(null, JSON.parse(body as string));
  } catch (err) {
    done(err as Error, undefined);
  }
});
const authenticated = (headers: Record<string, string | string[] | undefined>) =>
  headers['x-service-storage-accesskey'] === accessKey &&
  sameDigest(secretDigest(String(headers['x-service-storage-secretaccesskey'])), digest);
const answer = (reply: FastifyReply, id: string, data: string) =>
  reply
    .header('x-request-id', id)
    .header('api-version', '2026-01-01')
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(`{"data":${data}}`);

app.get('/api/storage', (request, reply) => {
  if (!authenticated(request.headers)) return reply.code(401).send('{}');
  const url = signer.presign(
    'GET',
    `/${uriEncode(String(request.headers['x-service-storage-filename']), true)}`,
    3600,
    Date.now(),
  );
  return answer(reply, request.id, `"${url}"`);
});
app.post('/api/storage/bulk', (request, reply) => {
  if (!authenticated(request.headers)) return reply.code(401).send('{}');
  const now = Date.now();
  let map = '';
  for (const { filename } of request.body as Array<{ filename: string }>) {
    map += `${map === '' ? '"{' : ','}\\"${filename}\\":\\"${signer.presign('GET', `/${uriEncode(filename, true)}`, DAY, now)}\\"`;
  }
  return answer(reply, request.id, `${map}}"`);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
