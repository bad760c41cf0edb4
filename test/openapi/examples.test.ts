// Swagger UI's "Try it out" sends a request body's example as it stands: against a server seeded as `sightline demo`
// seeds its store, every example the document carries must succeed (2xx).
import { describe, expect } from 'vitest';
import { seedDemo } from '../../src/cli/commands/demo.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { STORAGE_ENV } from '../storage/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: walks an arbitrary (OpenAPI) JSON document
type Json = any;

// Path parameters Swagger UI asks for: ids the demo has.
const DEMO_PATH = { runId: 'demo-detector-1' } as Record<string, string>;

const tests = extendEach(serverTests({ env: STORAGE_ENV }), (test) =>
  test.extend('demo', { scope: 'file' }, ({ server }) => seedDemo(server.store, server.config)),
);

describe.each(DIALECTS)('request-body examples against the demo (%s)', (dialect) => {
  const it = tests[dialect];

  it('each example is answered 2xx', async ({ server, demo }) => {
    const doc: Json = await (await fetch(`${server.url}/docs/json`)).json();
    const login = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: demo.username, password: demo.password }),
    });
    const session: string = (await login.json()).data.token;
    const answers: Array<{ operation: string; status: number }> = [];
    for (const [path, operations] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(operations)) {
        const examples = Object.entries<Json>(op.requestBody?.content ?? {}).filter(([, m]) => m.example !== undefined);
        if (examples.length === 0) continue;
        const [type, media] = examples[0]!;
        const query = new URLSearchParams();
        for (const p of op.parameters ?? [])
          if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example));
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(DEMO_PATH[name] ?? name));
        const res = await fetch(`${server.url}${url}${query.size ? `?${query}` : ''}`, {
          method: method.toUpperCase(),
          headers: { 'content-type': type, authorization: `Bearer ${session}` },
          body: typeof media.example === 'string' ? media.example : JSON.stringify(media.example),
        });
        await res.arrayBuffer();
        answers.push({ operation: `${method.toUpperCase()} ${path}`, status: res.status });
      }
    }
    expect(answers.map((a) => a.operation)).toEqual(
      expect.arrayContaining([
        'POST /detections',
        'PATCH /detections/{runId}',
        'POST /detections/import',
        'POST /recordings',
        'POST /recordings/search',
        'POST /evaluations',
      ]),
    );
    expect(answers.filter((a) => a.status < 200 || a.status > 299)).toEqual([]);
  });
});
