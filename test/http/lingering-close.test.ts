// A request refused before its whole body arrived: the client that goes on sending, and reads the answer only
// afterwards, still gets it (no reset throws it away), and the connection is closed once it is done.
import net from 'node:net';
import { describe, expect } from 'vitest';
import { serverTest } from '../support/fixtures.js';
import { bearer } from '../support/server.js';

const MiB = 1024 * 1024;

const it = serverTest('sqlite')
  /** Writes the head and `bodyBytes` of body before reading anything; then everything the server said. */
  .extend('sendAllThenRead', ({ server }) => (head: string, bodyBytes: number) => {
    return new Promise<{ answer: string; error?: string }>((resolve) => {
      let answer = '';
      let error: string | undefined;
      const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      socket.pause();
      socket.on('error', (err) => {
        error = (err as NodeJS.ErrnoException).code;
      });
      socket.on('close', () => resolve({ answer, error }));
      socket.on('connect', async () => {
        const chunk = Buffer.alloc(MiB, 0x20);
        const write = (data: string | Buffer) => new Promise<void>((done) => socket.write(data, () => done()));
        await write(head);
        for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += MiB) await write(chunk);
        socket.on('data', (c) => {
          answer += c;
        });
        socket.resume();
      });
    });
  });

describe('a lingering close after an early answer', () => {
  it('a 413 from Content-Length reaches a client that first sends 40 MiB', async ({ org, sendAllThenRead }) => {
    for (let i = 0; i < 3; i++) {
      const head = `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer(org.token).authorization}\r\nContent-Type: application/json\r\nContent-Length: ${40 * MiB}\r\n\r\n`;
      const { answer, error } = await sendAllThenRead(head, 40 * MiB);
      expect(error).toBeUndefined();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain('connection: close');
    }
  });

  it('so does a 401 given before a large body', async ({ sendAllThenRead }) => {
    const head = `POST /detections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${20 * MiB}\r\n\r\n`;
    const { answer, error } = await sendAllThenRead(head, 20 * MiB);
    expect(error).toBeUndefined();
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  });
});
