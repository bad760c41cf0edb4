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
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 408: 'Request Timeout', 409: 'Conflict', 412: 'Precondition Failed', 413: 'Content Too Large', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** Thrown anywhere in a request; the error handler turns it into application/problem+json. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.extensions = extensions;
    this.headers = headers;
  }

  toProblem(): ProblemBody {
    return problem(this.status, this.code, this.message, this.extensions);
  }
}

export function problem(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}): ProblemBody {
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
