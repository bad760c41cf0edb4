// Raw HTTP for what fetch cannot do: bodies without Content-Length, lying lengths, huge streams.
import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends `total` bytes of `chunk` repeated; with chunked=true no Content-Length is sent. */
export function streamBody(
  url: string,
  options: { headers: Record<string, string>; total: number; chunked: boolean; method?: string },
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (!options.chunked) headers['content-length'] = String(options.total);
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: options.method ?? 'POST',
      headers,
    });
    let settled = false;
    req.on('response', (res) => {
      settled = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, body });
      res.on('end', done);
      res.on('aborted', done);
      res.on('error', done);
    });
    // The server may answer and close while we are still writing; that is the point of the test.
    req.on('error', (err) => {
      if (!settled) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < options.total && !req.destroyed) {
        const n = Math.min(chunk.length, options.total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** Writes `request` as it is on a new connection to the server at `url`; everything it answers until it closes. */
export function rawExchange(url: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(request));
    socket.on('data', (c) => {
      answer += c;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
