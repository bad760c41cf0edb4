// Login throttling policy, pure: the counters themselves live in the database (shared by instances).

export interface FailureCounter { failures: number; windowStart: number }

/** Seconds until another attempt is allowed, or 0 when the key may try now. */
export function retryAfterSeconds(counter: FailureCounter | undefined, max: number, windowSeconds: number, now: number): number {
  if (!counter || counter.failures < max) return 0;
  const reopens = counter.windowStart + windowSeconds * 1000;
  return reopens > now ? Math.ceil((reopens - now) / 1000) : 0;
}
