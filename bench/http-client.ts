import http from 'node:http';
import autocannon from 'autocannon';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request with a prepared body; the text is decoded only when asked (decoding 25 MiB is not the server's time). */
export function request(url: string, method: string, headers: Record<string, string>, body?: Buffer, keepText = false): Promise<{ status: number; bytes: number; text?: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, agent,
      headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, bytes: all.length, text: keepText ? all.toString() : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadResult { rps: number; errors: number; non2xx: number; p50: number; p99: number }

export interface LoadOptions {
  method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; connections?: number; seconds?: number;
  /** A different body per request (the n-th request gets bodies[n % length]); overrides body. */
  bodies?: string[];
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const bodies = options.bodies;
  const result = await autocannon({
    url, method: options.method ?? 'GET', headers: options.headers, body: options.body,
    connections: options.connections ?? 32, duration: options.seconds ?? 10,
    ...(bodies ? { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[n++ % bodies.length] }) }] } : {}),
  } as autocannon.Options);
  return {
    rps: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx,
    p50: result.latency.p50, p99: result.latency.p99,
  };
}
