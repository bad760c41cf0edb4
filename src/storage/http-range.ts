// Range and conditional requests (RFC 9110 §13–14) for objects whose size, ETag and mtime are known. Pure.

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

export interface Validators {
  etag: string;
  lastModified: Date;
}
export interface ConditionalHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  ifMatch?: string;
  ifUnmodifiedSince?: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d\\d):(\\d\\d):(\\d\\d)';
// The three forms a recipient must accept (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d\\d) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d\\d)-${MONTH}-(\\d\\d) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * Milliseconds since the epoch of an HTTP-date, or undefined for anything else: `Date.parse` would also take
 * `2030` or an ISO date, and RFC 9110 has a recipient ignore a conditional header whose date is not an HTTP-date.
 */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  let day: string;
  let month: string;
  let year: number;
  let hms: string[];
  const imf = IMF_FIXDATE.exec(text);
  const rfc850 = imf ? null : RFC_850.exec(text);
  const asctime = imf || rfc850 ? null : ASCTIME.exec(text);
  if (imf) [day, month, year, hms] = [imf[1]!, imf[2]!, Number(imf[3]), imf.slice(4, 7)];
  else if (rfc850) {
    // A two-digit year more than 50 years ahead is in the past century (RFC 9110 §5.6.7).
    const yy = Number(rfc850[3]);
    const thisYear = new Date().getUTCFullYear();
    year = 2000 + yy > thisYear + 50 ? 1900 + yy : 2000 + yy;
    [day, month, hms] = [rfc850[1]!, rfc850[2]!, rfc850.slice(4, 7)];
  } else if (asctime)
    [month, day, hms, year] = [asctime[1]!, asctime[2]!.trim(), asctime.slice(3, 6), Number(asctime[6])];
  else return undefined;
  const [h, min, s] = hms.map(Number) as [number, number, number];
  const monthIndex = MONTHS.indexOf(month);
  const ms = Date.UTC(year, monthIndex, Number(day), h, min, s);
  const back = new Date(ms);
  // 31 Feb or 25:00 roll over into another date: not a date at all.
  if (back.getUTCDate() !== Number(day) || back.getUTCMonth() !== monthIndex || h > 23 || min > 59 || s > 60)
    return undefined;
  return ms;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000) * 1000;

/**
 * If-Match (strong comparison) and, without it, If-Unmodified-Since: a resumed download must not splice another
 * version's bytes onto what it has (RFC 9110 §13.2.2: these come first, and a false one is 412).
 */
export function preconditionFailed(h: ConditionalHeaders, v: Validators): boolean {
  if (h.ifMatch !== undefined) {
    const tags = h.ifMatch.split(',').map((t) => t.trim());
    return !(tags.includes('*') || (!v.etag.startsWith('W/') && tags.includes(v.etag)));
  }
  if (h.ifUnmodifiedSince !== undefined) {
    const since = parseHttpDate(h.ifUnmodifiedSince);
    return since !== undefined && seconds(v.lastModified) > since;
  }
  return false;
}

/** If-None-Match wins over If-Modified-Since; dates compare at second precision. */
export function notModified(h: ConditionalHeaders, v: Validators): boolean {
  if (h.ifNoneMatch !== undefined) {
    const tags = h.ifNoneMatch.split(',').map((t) => t.trim());
    return tags.includes('*') || tags.some((t) => opaque(t) === opaque(v.etag));
  }
  if (h.ifModifiedSince !== undefined) {
    const since = parseHttpDate(h.ifModifiedSince);
    return since !== undefined && seconds(v.lastModified) <= since;
  }
  return false;
}

/**
 * One `bytes=` range; several ranges, unknown units and bad syntax are ignored (RFC 9110 allows serving the
 * whole representation then), and an If-Range that no longer matches turns the range off. An If-Range date never
 * matches: a date is a strong validator only if no second version can share its second (RFC 9110 §13.1.5), and a
 * file rewritten within the second the client's copy was read in keeps the same Last-Modified, so the range would
 * splice two versions. The whole object is always a correct answer; clients send the ETag (as browsers do).
 */
export function decideRange(h: ConditionalHeaders, size: number, v: Validators): RangeDecision {
  if (!h.range) return { kind: 'full' };
  if (h.ifRange !== undefined) {
    const ir = h.ifRange.trim();
    const matches = ir.startsWith('"') && ir === v.etag;
    if (!matches) return { kind: 'full' };
  }
  const m = /^bytes=(\d*)-(\d*)$/i.exec(h.range.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    // A non-zero suffix is satisfiable (RFC 9110 §14.1.1), but an empty object has no byte to put in a 206.
    if (size === 0) return { kind: 'full' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
