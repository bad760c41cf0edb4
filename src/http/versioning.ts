// API version negotiation through `Accept: application/json; version=YYYY-MM-DD`.
import { ApiError } from './problem.js';

export const API_VERSIONS = ['2026-01-01'] as const;
export const LATEST_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1]!;

/**
 * The version a request pins, or the latest when it pins none. Several media ranges may pin versions
 * (`version=2099-01-01, application/json; version=2026-01-01`): the first one the server knows wins, as with any
 * list of acceptable alternatives; 406 only when it knows none of them.
 */
export function negotiateVersion(accept: string | undefined): string {
  if (!accept || !accept.includes('=')) return LATEST_API_VERSION;
  let unknown: string | undefined;
  for (const range of accept.split(',')) {
    for (const param of range.split(';').slice(1)) {
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'version') continue;
      const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if ((API_VERSIONS as readonly string[]).includes(value)) return value;
      unknown ??= value;
    }
  }
  if (unknown === undefined) return LATEST_API_VERSION;
  throw new ApiError(406, 'unsupported_api_version', `API version "${unknown}" is not supported`, {
    supportedVersions: [...API_VERSIONS],
  });
}
