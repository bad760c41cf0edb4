import http from 'node:http';
import autocannon from 'autocannon';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request with a prepared body; the text is decoded only when asked (decoding 25 MiB is not the server's time). */
export function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer,
  keepText = false,
): Promise<{ status: number; bytes: number; text?: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, bytes: all.length, text: keepText ? all.toString() : undefined });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadResult {
  rps: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  /** A different body per request (the n-th request gets bodies[n % length]); overrides body. */
  bodies?: string[];
  /** Where in `bodies` to go on from, shared across calls (successive rounds must not re-send the first bodies). */
  cursor?: { n: number };
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const cursor = options.cursor ?? { n: 0 };
  const bodies = options.bodies;
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 32,
    duration: options.seconds ?? 10,
    ...(bodies
      ? {
          requests: [
            { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[cursor.n++ % bodies.length] }) },
          ],
        }
      : {}),
  } as autocannon.Options);
  return {
    rps: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export interface Comparison {
  service: LoadResult;
  floor: LoadResult;
  ratio: number;
}

/**
 * The service and its floor under the same load, alternating in rounds (after a short warm-up of each) so that a
 * noisy neighbour slows both alike: the ratio is the median of the rounds' ratios; req/s and latencies are the
 * rounds' medians, errors their sum. `seconds` is each side's total time under load.
 */
export async function loadAgainst(
  service: { url: string; options: LoadOptions },
  floor: { url: string; options: LoadOptions },
  seconds = 10,
  rounds = 5,
): Promise<Comparison> {
  await load(service.url, { ...service.options, seconds: 1 });
  await load(floor.url, { ...floor.options, seconds: 1 });
  const ours: LoadResult[] = [];
  const theirs: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    ours.push(await load(service.url, { ...service.options, seconds: seconds / rounds }));
    theirs.push(await load(floor.url, { ...floor.options, seconds: seconds / rounds }));
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = (results: LoadResult[]): LoadResult => ({
    rps: mid(results.map((r) => r.rps)),
    p50: mid(results.map((r) => r.p50)),
    p99: mid(results.map((r) => r.p99)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  });
  return { service: summary(ours), floor: summary(theirs), ratio: mid(ours.map((r, i) => r.rps / theirs[i]!.rps)) };
}
