// Swagger UI's "Try it out" sends a request body's example as it stands: against a server seeded as `sightline demo`
// seeds its store, every example the document carries must succeed (2xx).
import { describe, expect } from 'vitest';
import { seedDemo } from '../../src/cli/commands/demo.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { STORAGE_ENV } from '../storage/helpers.js';
import { bearer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: walks an arbitrary (OpenAPI) JSON document
type Json = any;

// Path parameters Swagger UI asks for: ids the demo has, or that an earlier example created (the document lists
// each path's POST before the routes of the thing it creates).
const DEMO_PATH: Record<string, Record<string, string>> = {
  '/detections/{runId}': { runId: 'demo-detector-1' },
  '/api/storage/admin/providers/{name}': { name: 'archive' },
  '/api/storage/admin/accounts/{name}': { name: 'archive-reader' },
};

const tests = extendEach(serverTests({ env: STORAGE_ENV }), (test) =>
  test.extend('demo', { scope: 'file' }, ({ server }) => seedDemo(server.store, server.config)),
);

describe.each(DIALECTS)('request-body examples against the demo (%s)', (dialect) => {
  const it = tests[dialect];

  it('each request body has an example, and each example is answered 2xx', async ({ server, demo }) => {
    const doc: Json = await (await fetch(`${server.url}/docs/json`)).json();
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const session: string = (await (await post('/login', { username: demo.username, password: demo.password })).json())
      .data.token;
    // An invitation to redeem at POST /invitations/{token}, and the user the /admin/users/{id} examples change.
    const invited = await (
      await post('/admin/users', { username: 'guest', role: 'viewer', invite: true }, bearer(session))
    ).json();
    const params: Record<string, string> = { token: invited.data.invitation.token };
    const answers: Array<{ operation: string; status: number }> = [];
    const withoutExample: string[] = [];
    for (const [path, operations] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(operations)) {
        const operation = `${method.toUpperCase()} ${path}`;
        const content = Object.entries<Json>(op.requestBody?.content ?? {});
        const examples = content.filter(([, m]) => m.example !== undefined);
        if (content.length > 0 && examples.length === 0) withoutExample.push(operation);
        if (examples.length === 0) continue;
        const [type, media] = examples[0]!;
        let example = media.example;
        // What Swagger UI's user fills in: the demo's password (printed at its first start), its storage keys.
        if (operation === 'POST /login') example = { ...example, password: demo.password };
        const security = Object.keys(op.security?.[0] ?? {});
        const auth: Record<string, string> = security.includes('storageAccessKey')
          ? {
              'x-service-storage-accesskey': String(demo.storageAccessKey),
              'x-service-storage-secretaccesskey': String(demo.storageSecretAccessKey),
            }
          : security.includes('bearer')
            ? bearer(session)
            : {};
        const query = new URLSearchParams();
        for (const p of op.parameters ?? [])
          if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example));
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(DEMO_PATH[path]?.[name] ?? params[name] ?? name),
        );
        const res = await fetch(`${server.url}${url}${query.size ? `?${query}` : ''}`, {
          method: method.toUpperCase(),
          headers: { 'content-type': type, ...auth },
          body: typeof example === 'string' ? example : JSON.stringify(example),
        });
        const answer = await res.text();
        // The user the POST /admin/users example creates is the one the /admin/users/{id} examples change.
        if (operation === 'POST /admin/users' && res.ok) params.id = JSON.parse(answer).data.id;
        answers.push({ operation, status: res.status });
      }
    }
    expect(withoutExample).toEqual([]);
    expect(answers.map((a) => a.operation)).toEqual(
      expect.arrayContaining([
        'POST /detections',
        'PATCH /detections/{runId}',
        'POST /detections/import',
        'POST /recordings',
        'POST /recordings/search',
        'POST /evaluations',
        'POST /login',
        'POST /api/storage/bulk',
        'PATCH /admin/users/{id}',
        'POST /invitations/{token}',
      ]),
    );
    expect(answers.filter((a) => a.status < 200 || a.status > 299)).toEqual([]);
  });
});
