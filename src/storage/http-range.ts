// Range and conditional requests (RFC 9110) for objects whose size, ETag and mtime are known. Pure.

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

export interface Validators { etag: string; lastModified: Date }
export interface ConditionalHeaders { range?: string; ifRange?: string; ifNoneMatch?: string; ifModifiedSince?: string }

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match wins over If-Modified-Since; dates compare at second precision. */
export function notModified(h: ConditionalHeaders, v: Validators): boolean {
  if (h.ifNoneMatch !== undefined) {
    const tags = h.ifNoneMatch.split(',').map((t) => t.trim());
    return tags.includes('*') || tags.some((t) => opaque(t) === opaque(v.etag));
  }
  if (h.ifModifiedSince !== undefined) {
    const since = Date.parse(h.ifModifiedSince);
    return Number.isFinite(since) && Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * One `bytes=` range; several ranges, unknown units and bad syntax are ignored (RFC 9110 allows serving the
 * whole representation then), and an If-Range that no longer matches turns the range off.
 */
export function decideRange(h: ConditionalHeaders, size: number, v: Validators): RangeDecision {
  if (!h.range) return { kind: 'full' };
  if (h.ifRange !== undefined) {
    const ir = h.ifRange.trim();
    const matches = ir.startsWith('"') ? ir === v.etag : Date.parse(ir) === Math.floor(v.lastModified.getTime() / 1000) * 1000;
    if (!matches) return { kind: 'full' };
  }
  const m = /^bytes=(\d*)-(\d*)$/i.exec(h.range.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
