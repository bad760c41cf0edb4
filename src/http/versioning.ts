// API version negotiation through `Accept: application/json; version=YYYY-MM-DD`.
import { ApiError } from './problem.js';

export const API_VERSIONS = ['2026-01-01'] as const;
export const LATEST_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1]!;

// Media ranges a JSON answer satisfies: an alternative among them that pins no version takes the latest.
const JSON_RANGE = /^(?:application\/(?:json|\*|[^\s;]*\+json)|\*\/\*)$/i;

/**
 * The version a request pins, or the latest when it pins none. Several media ranges may pin versions
 * (`version=2099-01-01, application/json; version=2026-01-01`): the first one the server knows wins, as with any
 * list of acceptable alternatives. A JSON range without a version is an alternative too (the latest), so 406 only
 * when every acceptable range pins a version the server does not know. Ranges with `q=0` are refused alternatives.
 */
export function negotiateVersion(accept: string | undefined): string {
  if (!accept?.includes('=')) return LATEST_API_VERSION;
  let unknown: string | undefined;
  let unpinned = false;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    let version: string | undefined;
    let refused = false;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const name = param.slice(0, eq).trim().toLowerCase();
      const value = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name === 'version') version ??= value;
      else if (name === 'q' && Number(value) === 0) refused = true;
    }
    if (refused) continue;
    if (version === undefined) {
      if (JSON_RANGE.test(type.trim())) unpinned = true;
      continue;
    }
    if ((API_VERSIONS as readonly string[]).includes(version)) return version;
    unknown ??= version;
  }
  if (unknown === undefined || unpinned) return LATEST_API_VERSION;
  throw new ApiError(406, 'unsupported_api_version', `API version "${unknown}" is not supported`, {
    supportedVersions: [...API_VERSIONS],
  });
}
