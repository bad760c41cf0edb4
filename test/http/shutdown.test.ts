// SIGTERM on a server process whose clients hold keep-alive connections: the request in flight is answered, a
// request that follows it on the same connection is refused as a problem, and the process exits 0 at once instead
// of waiting for the connection's keep-alive timeout.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { exited, spawnServer } from '../support/cli.js';

/** Resolves once nothing accepts connections on the port any more: the server has begun to close. */
async function refusingConnections(port: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the server kept accepting connections');
}

/**
 * Starts POST /login on the socket with half its body, and resolves once the server has taken the request up: with
 * `Expect: 100-continue` its "100 Continue" is written in the same turn as the request enters the app, so a signal
 * sent after it finds the request in flight, not still in the socket.
 */
async function inFlight(socket: net.Socket, body: string, received: () => string): Promise<void> {
  socket.write(
    `POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  for (let i = 0; i < 500 && !received().startsWith('HTTP/1.1 100 Continue\r\n\r\n'); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  socket.write(body.slice(0, 10));
}

/** A raw connection to the server, with what it has received so far, whether it was reset, and its close. */
async function connectTo(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const conn = { socket, received: '', reset: false, closed: new Promise((resolve) => socket.once('close', resolve)) };
  socket.on('data', (c: Buffer) => {
    conn.received += c.toString('latin1');
  });
  socket.on('error', () => {
    conn.reset = true;
  });
  return conn;
}

/** The final answers, without the interim 100. */
const finalAnswers = (text: string) => text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');

describe.each(DIALECTS)('graceful shutdown on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  const BODY = JSON.stringify({ username: 'nobody', password: 'wrong-password' });

  /**
   * A server with a grace period far longer than the test (only a clean exit passes), a keep-alive connection whose
   * POST /login is in flight, and then SIGTERM: resolves once the server has stopped accepting connections.
   */
  async function signalledWithRequestInFlight() {
    const server = await spawnServer(ts.location, { SHUTDOWN_GRACE_MS: '60000' });
    const port = Number(new URL(server.url).port);
    const conn = await connectTo(port);
    await inFlight(conn.socket, BODY, () => conn.received);
    const started = Date.now();
    server.child.kill('SIGTERM');
    await refusingConnections(port);
    return { server, socket: conn.socket, closed: conn.closed, started, answers: () => finalAnswers(conn.received) };
  }

  it('answers the request in flight, refuses the next one on that connection with a 503 problem, and exits 0 at once', async () => {
    const { server, socket, closed, started, answers } = await signalledWithRequestInFlight();
    // The rest of the body, and a second request right behind it on the same keep-alive connection.
    socket.write(`${BODY.slice(10)}GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: during-close\r\n\r\n`);
    expect(await exited(server.child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    await closed;
    const [first, second, ...rest] = answers().split(/(?=HTTP\/1\.1 )/);
    expect(rest).toEqual([]);
    expect(first).toMatch(/^HTTP\/1\.1 401 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/content-type: application\/problem\+json/i);
    expect(second).toContain('"code":"service_unavailable"');
    expect(second).toMatch(/x-request-id: during-close/i);
    expect(second).toMatch(/api-version: 2026-01-01/i);
    expect(second).toMatch(/retry-after: 1/i);
  });

  it('closes a keep-alive connection once its answer is out, instead of waiting for it to time out', async () => {
    const { server, socket, started, answers } = await signalledWithRequestInFlight();
    socket.write(BODY.slice(10));
    try {
      expect(await exited(server.child)).toBe(0);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(answers()).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      socket.destroy();
    }
  });

  it('answers a request that comes on an idle keep-alive connection after the signal with a 503, not a reset', async () => {
    // The soak's case: a client had its answer just before SIGTERM and sends its next request a moment after; Node
    // dropped idle connections the moment the server closed, and that request met a reset.
    const server = await spawnServer(ts.location, { SHUTDOWN_GRACE_MS: '60000', LOG_LEVEL: 'info' });
    const port = Number(new URL(server.url).port);
    const conn = await connectTo(port);
    conn.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 500 && !/\r\n\r\n\{.*\}$/s.test(conn.received); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(conn.received).toMatch(/^HTTP\/1\.1 200 /);
    conn.received = '';
    const started = Date.now();
    server.child.kill('SIGTERM');
    await refusingConnections(port);
    conn.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: after-signal\r\n\r\n');
    await conn.closed;
    expect(conn.reset).toBe(false);
    expect(conn.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(conn.received).toMatch(/connection: close/i);
    expect(conn.received).toMatch(/retry-after: 1/i);
    expect(await exited(server.child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    // A refusal while closing is routine during a deploy: its access line, not an error with a stack.
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.includes('after-signal'));
    expect(lines.map((l) => JSON.parse(l) as { level: number; code?: string; msg: string })).toEqual([
      expect.objectContaining({ level: 30, code: 'service_unavailable' }),
    ]);
  });

  it('answers a request whose headers were still arriving when the signal came, however long they take', async () => {
    const server = await spawnServer(ts.location, { SHUTDOWN_GRACE_MS: '60000' });
    const port = Number(new URL(server.url).port);
    const conn = await connectTo(port);
    conn.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 100));
    server.child.kill('SIGTERM');
    await refusingConnections(port);
    // Longer than a connection may stay idle once the server closes: a request under way is not idle.
    await new Promise((r) => setTimeout(r, 1_200));
    conn.socket.write('\r\n');
    await conn.closed;
    expect(conn.reset).toBe(false);
    expect(conn.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(await exited(server.child)).toBe(0);
  });

  it('drops a keep-alive connection that stays idle once the server closes, and exits', async () => {
    const server = await spawnServer(ts.location, { SHUTDOWN_GRACE_MS: '60000' });
    const conn = await connectTo(Number(new URL(server.url).port));
    conn.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => conn.socket.once('data', resolve));
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    await conn.closed;
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
