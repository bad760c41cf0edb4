// RFC 9457 problem details: the one shape of every error this service returns.

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Thrown anywhere in a request; the error handler turns it into application/problem+json. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** For the log line only, never the answer: why a backend failed (its error code and message, URLs cut short). */
  logDetail?: string;

  constructor(
    status: number,
    code: string,
    detail: string,
    extensions: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.extensions = extensions;
    this.headers = headers;
  }

  /** Keeps the cause of a 5xx for the operator's log line: the client sees only the problem. */
  withCause(cause: unknown): this {
    this.logDetail = describeCause(cause);
    return this;
  }

  toProblem(): ProblemBody {
    return problem(this.status, this.code, this.message, this.extensions);
  }
}

export function problem(
  status: number,
  code: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  return {
    ...extensions,
    type: `urn:sightline:problem:${code}`,
    title: statusTitle(status),
    status,
    detail,
    code,
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The status line's reason phrase, which is also the problem's title. */
export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}

/**
 * An error and its causes as one line (`fetch failed ← ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9000`), with
 * every URL's query and credentials cut: a presigned URL's query is a credential.
 */
export function describeCause(cause: unknown): string {
  const parts: string[] = [];
  for (
    let e = cause, depth = 0;
    e !== undefined && e !== null && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const err = e as { code?: unknown; message?: unknown };
    const text = typeof err.message === 'string' ? err.message : String(e);
    parts.push(typeof err.code === 'string' && !text.includes(err.code) ? `${err.code}: ${text}` : text);
  }
  return parts
    .join(' ← ')
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1')
    .replace(/(\w+:\/\/[^\s?#"']*)[?#][^\s"']*/g, '$1?…')
    .slice(0, 500);
}
