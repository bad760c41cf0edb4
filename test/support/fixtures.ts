// Test fixtures instead of per-file beforeAll/afterAll: a file's tests ask for `server` and `org` and get them made
// once for the file (on first use) and closed when it ends.
import { test as base } from 'vitest';
import type { DialectName } from '../../src/db/store.js';
import type { NewRecording } from '../../src/recordings/queries.js';
import { type SeededOrg, type TestServer, seedOrg, startTestServer } from './server.js';
import { type StorageFixture, seedStorage } from '../storage/helpers.js';

export interface ServerFixtureOptions {
  /** Settings for the server, as environment variables; a function is called when the server is made. */
  env?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** What `org`'s recording differs in from seedOrg's default one. */
  recording?: Partial<NewRecording>;
}

/**
 * A test API per dialect, each as serverTest makes it. Vitest takes file-scoped fixtures only from the top level
 * of a file, so a file makes these there and each `describe.each(DIALECTS)` block picks its own.
 */
export function serverTests(options: ServerFixtureOptions = {}) {
  return { sqlite: serverTest('sqlite', options), pg: serverTest('pg', options) } satisfies Record<
    DialectName,
    unknown
  >;
}

/**
 * A test API on `dialect`: `server` is a listening test server over a fresh store, `org` an organisation seeded on
 * it (a user per role, a token, a recording) and `other` a second one, for isolation. Each is file-scoped: made for
 * the first test that asks, shared by the file's later tests. Every call makes fixtures of its own.
 */
export function serverTest(dialect: DialectName, options: ServerFixtureOptions = {}) {
  return (
    base
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from a destructuring pattern.
      .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<TestServer> => {
        const env = typeof options.env === 'function' ? await options.env() : options.env;
        const server = await startTestServer(dialect, env);
        onCleanup(() => server.close());
        return server;
      })
      .extend('org', { scope: 'file' }, ({ server }): Promise<SeededOrg> => seedOrg(server.store, options.recording))
      .extend('other', { scope: 'file' }, ({ server }): Promise<SeededOrg> => seedOrg(server.store))
  );
}

/** One dialect's test API, as serverTest makes it. */
export type ServerTest = ReturnType<typeof serverTest>;

/**
 * Each dialect's test API with `extend` applied, for a file's own fixtures (its seed data, made once with
 * `{ scope: 'file' }`): call it at the top level of the file, as file-scoped fixtures must be.
 */
export function extendEach<T = ServerTest, R = unknown>(
  tests: Record<DialectName, T>,
  extend: (test: T, dialect: DialectName) => R,
): Record<DialectName, R> {
  return { sqlite: extend(tests.sqlite, 'sqlite'), pg: extend(tests.pg, 'pg') };
}

/**
 * serverTests plus `fx`, file-scoped: an organisation with providers 'disk' (fs) and 's3' and a storage account, as
 * seedStorage makes it with `storage` (the server's env should hold STORAGE_ENV).
 */
export function storageTests(options: ServerFixtureOptions & { storage?: Parameters<typeof seedStorage>[1] } = {}) {
  return extendEach(serverTests(options), (test) =>
    test.extend('fx', { scope: 'file' }, ({ server }): Promise<StorageFixture> => seedStorage(server, options.storage)),
  );
}
