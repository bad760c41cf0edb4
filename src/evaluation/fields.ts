/**
 * The flat, reference-named fields of one result (`HOTA`, `MOTA`, `IDF1`, `AP`, …), built from the metrics' own
 * results. HOTA's array fields appear as their mean over α, with the 19 values under `alpha`.
 */
import { CLEAR_FLOAT_FIELDS, CLEAR_INTEGER_FIELDS, type ClearResult } from './clear.js';
import type { CocoStats } from './coco.js';
import type { CountResult } from './count.js';
import { HOTA_FLOAT_ARRAY_FIELDS, HOTA_FLOAT_FIELDS, HOTA_INTEGER_ARRAY_FIELDS, type HotaResult } from './hota.js';
import type { IdentityResult } from './identity.js';
import { mean } from './numeric.js';

export interface MetricResults {
  hota?: HotaResult;
  clear?: ClearResult;
  identity?: IdentityResult;
  count?: CountResult;
  coco?: CocoStats;
}

export interface Fields {
  [field: string]: number | Record<string, number[]>;
}

export function toFields(m: MetricResults): Fields {
  const out: Fields = {};
  if (m.hota) {
    const alpha: Record<string, number[]> = {};
    for (const f of HOTA_FLOAT_ARRAY_FIELDS) {
      const values = Array.from(m.hota[f]);
      out[f] = mean(values);
      alpha[f] = values;
    }
    for (const f of HOTA_FLOAT_FIELDS) out[f] = m.hota[f];
    for (const f of HOTA_INTEGER_ARRAY_FIELDS) alpha[f] = Array.from(m.hota[f]);
    out.alpha = alpha;
  }
  if (m.clear) {
    for (const f of CLEAR_FLOAT_FIELDS) if (f !== 'MOTP_sum') out[f] = m.clear[f];
    for (const f of CLEAR_INTEGER_FIELDS) out[f] = m.clear[f];
  }
  if (m.identity) Object.assign(out, m.identity);
  if (m.count) Object.assign(out, m.count);
  if (m.coco) Object.assign(out, m.coco);
  return out;
}
