// sightline/client as an outside project gets it: the package packed by npm, unpacked into a project of its own
// with nothing but the client's one dependency beside it (so an import of server code would fail), a TypeScript
// program compiled against it under --strict (wrong calls must not compile), then run against a real server.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createUser } from '../../src/auth/queries.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { ROOT } from '../support/built.js';
import { DIALECTS } from '../support/store.js';
import { unique } from '../storage/helpers.js';

const PASSWORD = 'correct horse battery';

// What a producer would write. The functions that are never called hold calls that must not compile.
const PROBE = `
import { createClient, type Problem } from 'sightline/client';

const [baseUrl, username, password, mediaKey] = process.argv.slice(2) as [string, string, string, string];
const client = createClient({ baseUrl });
const login = await client.login(username, password);
if (login.error) throw new Error(login.error.code);
const posted = await client.POST('/detections', {
  body: {
    mediaKey,
    schemaVersion: '1.0',
    source: { kind: 'model', runId: 'probe' },
    coordinateSpace: 'normalized',
    tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
  },
});
const read = await client.GET('/detections/{runId}', { params: { path: { runId: 'probe' } } });
const missing = await client.GET('/detections/{runId}', { params: { path: { runId: 'no-such-run' } } });
const problem: Problem | undefined = missing.error;
const code: string | undefined = missing.error?.code;
const boxes: number | undefined = read.data?.data.boxesStored;
console.log(JSON.stringify({ posted: posted.response.status, boxes, code, status: problem?.status }));

export function notARun() {
  // @ts-expect-error a run is an object
  return client.POST('/detections', { body: 42 });
}
export function boxWithoutFrame() {
  const run = { schemaVersion: '1.0', source: {}, coordinateSpace: 'normalized' as const, mediaKey };
  // @ts-expect-error every box has its frame
  return client.POST('/detections', { body: { ...run, tracks: [{ id: 't', boxes: [{ x: 0, y: 0, w: 1, h: 1 }] }] } });
}
export function wrongPath() {
  // @ts-expect-error the route's parameter is runId
  return client.GET('/detections/{runId}', { params: { path: { id: 'x' } } });
}
export function wrongPatch() {
  // @ts-expect-error baseRevision is a number
  return client.PATCH('/detections/{runId}', { params: { path: { runId: 'x' } }, body: { baseRevision: '1', tracks: {} } });
}
export function unknownRoute() {
  // @ts-expect-error no such route
  return client.GET('/detection');
}
`;

const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-client-'));
const project = path.join(work, 'project');
let packed: string[] = [];

/** The package as npm packs it, unpacked where `npm install <tarball>` would put it. */
function installPackedPackage(): void {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = pack!.files.map((f) => f.path);
  const into = path.join(project, 'node_modules', 'sightline');
  fs.mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(work, pack!.filename), '-C', into, '--strip-components=1']);
  // The client's dependency, and Node's types for the probe's process.argv; no server package.
  for (const name of ['openapi-fetch', 'openapi-typescript-helpers', '@types/node', 'undici-types']) {
    const link = path.join(project, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), link, 'dir');
  }
}

// The same program with one directive taken away: tsc must report that line, and only that one.
const WRONG = PROBE.replace('  // @ts-expect-error baseRevision is a number\n', '');
let diagnostics: string[] = [];

beforeAll(() => {
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'probe', type: 'module' }));
  fs.writeFileSync(path.join(project, 'probe.ts'), PROBE);
  fs.writeFileSync(path.join(project, 'wrong.ts'), WRONG);
  installPackedPackage();
  // One compilation for both files (each takes most of a minute on a busy machine); tsc emits despite errors.
  const args = ['--strict', '--target', 'es2022', '--module', 'nodenext', '--types', 'node', '--outDir', 'out'];
  try {
    execFileSync(process.execPath, [tsc, ...args, 'probe.ts', 'wrong.ts'], { cwd: project, encoding: 'utf8' });
  } catch (err) {
    diagnostics = String((err as { stdout: string }).stdout)
      .split('\n')
      .filter((line) => /error TS/.test(line));
  }
}, 240_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const tests = extendEach(serverTests(), (test) =>
  test.extend('editor', { scope: 'file' }, async ({ server, org }) => {
    const username = unique('probe-editor');
    await createUser(server.store.db, org.orgId, username, PASSWORD, 'editor');
    return username;
  }),
);

describe('the packed package', () => {
  const it = tests.sqlite;

  it('ships the client: its JavaScript, its declarations and the generated types; the bin stays', () => {
    for (const file of ['dist/client/index.js', 'dist/client/index.d.ts', 'dist/client/api.d.ts', 'bin/sightline.js'])
      expect(packed).toContain(file);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/sightline/package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ sightline: 'bin/sightline.js' });
    expect(manifest.exports['./client']).toEqual({
      types: './dist/client/index.d.ts',
      default: './dist/client/index.js',
    });
  });

  it('compiles a program under --strict, where every wrong call is an error', () => {
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(
      /^wrong\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  });
});

describe.each(DIALECTS)('a compiled program using sightline/client on %s', (dialect) => {
  const it = tests[dialect];

  it('logs in, posts, reads and gets a typed run_not_found', async ({ server, org, editor }) => {
    // Asynchronously: the server answering the program runs in this process.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['out/probe.js', server.url, editor, PASSWORD, org.recording.mediaKey],
      { cwd: project, encoding: 'utf8' },
    );
    expect(JSON.parse(stdout)).toEqual({ posted: 201, boxes: 1, code: 'run_not_found', status: 404 });
  });
});
