// API version negotiation through `Accept: application/json; version=YYYY-MM-DD`.
import { ApiError } from './problem.js';

export const API_VERSIONS = ['2026-01-01'] as const;
export const LATEST_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1]!;

/** The version a request pins, or the latest when it pins none; throws 406 for an unknown one. */
export function negotiateVersion(accept: string | undefined): string {
  if (!accept) return LATEST_API_VERSION;
  for (const range of accept.split(',')) {
    for (const param of range.split(';').slice(1)) {
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'version') continue;
      const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if ((API_VERSIONS as readonly string[]).includes(value)) return value;
      throw new ApiError(406, 'unsupported_api_version', `API version "${value}" is not supported`, {
        supportedVersions: [...API_VERSIONS],
      });
    }
  }
  return LATEST_API_VERSION;
}
