// The editor speaks only to the public API, with the signed-in user's Bearer token.

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

const WORDS: Record<string, string> = {
  invalid_credentials: 'Wrong username or password.',
  unauthorized: 'Your session has ended. Sign in again.',
  forbidden: 'Your role is not allowed to do this.',
  recording_not_found: 'This recording does not exist, or belongs to another organisation.',
  run_not_found: 'This layer no longer exists.',
  tracks_missing: 'Nothing left to save: every track was deleted. Delete the layer instead.',
  all_boxes_rejected: 'Every box was rejected; nothing was saved.',
  payload_too_large: 'The layer is too large to save in one request (32 MiB).',
  service_unavailable: 'The server cannot reach its database right now. Try again shortly.',
  network: 'Cannot reach the server. Check your connection and try again.',
};

/** An API error as a sentence for people. */
export function inWords(err: unknown): string {
  if (err instanceof ApiProblem) {
    if (err.code === 'too_many_requests') {
      const wait = Number(err.body.retryAfter);
      return `Too many failed attempts. Try again in ${Number.isFinite(wait) && wait > 0 ? `${wait} seconds` : 'a while'}.`;
    }
    if (err.code === 'invalid_field')
      return fieldInWords(typeof err.body.field === 'string' ? err.body.field : '', err.message);
    if (WORDS[err.code]) return WORDS[err.code]!;
    if (err.status >= 500) return `The server failed to answer (${err.status}). Try again shortly.`;
    // The API's detail is written for developers; it is quoted inside a sentence, never shown bare.
    return err.message
      ? `The server refused the request: ${err.message.replace(/\.$/, '')}.`
      : `The server answered ${err.status}.`;
  }
  return WORDS.network!;
}

function fieldInWords(field: string, detail: string): string {
  if (field === 'region' || field.startsWith('region.'))
    return 'This region cannot be searched: drag a rectangle with a width and a height, or close a polygon of at least three points.';
  if (field === 'from' || field === 'to') return 'The start date must not be after the end date.';
  return `The server refused the value of ${field || 'a field'}: ${detail.replace(/\.$/, '')}.`;
}

export type RequestOptions = { method?: string; body?: unknown; signal?: AbortSignal };

export async function request<T>(path: string, token: string | undefined, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      signal: options.signal ?? null,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiProblem(0, 'network', WORDS.network!);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const p = (json ?? {}) as Record<string, unknown>;
    const code = typeof p.code === 'string' ? p.code : res.status === 400 ? 'invalid_body' : `http_${res.status}`;
    throw new ApiProblem(
      res.status,
      code,
      typeof p.detail === 'string' ? p.detail : `The server answered ${res.status}.`,
      p,
    );
  }
  return json as T;
}
