import http from 'node:http';
import autocannon from 'autocannon';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request with a prepared body; resolves with status and the received byte count. */
export function request(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; bytes: number; text?: string; keepText?: boolean }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, agent,
      headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, bytes: all.length, text: all.length < 64 * 1024 * 1024 ? all.toString() : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadResult { rps: number; errors: number; non2xx: number; p50: number; p99: number }

export async function load(url: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; connections?: number; seconds?: number }): Promise<LoadResult> {
  const result = await autocannon({
    url, method: options.method ?? 'GET', headers: options.headers, body: options.body,
    connections: options.connections ?? 32, duration: options.seconds ?? 10,
  });
  return {
    rps: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx,
    p50: result.latency.p50, p99: result.latency.p99,
  };
}
