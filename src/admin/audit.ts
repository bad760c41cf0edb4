// The audit log: one entry per admin change (who, what, when, from which address), never a secret. Entries are
// written in the change's own transaction where the change is this domain's, so that neither exists without the
// other. They are kept for the organisation's retention or AUDIT_MIN_DAYS, whichever is longer (purgeAudit).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/problem.js';
import { newId } from '../util/ids.js';
import type { Actor } from './actor.js';

type Db = Kysely<Database>;

export const AUDIT_MIN_DAYS = 90;
const DAY_MS = 86_400_000;

export interface AuditTarget {
  type: string;
  id?: string | null;
  name?: string | null;
}

export async function recordAudit(
  db: Db,
  orgId: string | null,
  actor: Actor,
  action: string,
  target: AuditTarget,
  details: Record<string, unknown> = {},
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(now),
      org_id: orgId,
      at: now,
      actor_kind: actor.kind,
      actor_id: actor.id,
      actor_name: actor.name,
      address: actor.address,
      action,
      target_type: target.type,
      target_id: target.id ?? null,
      target_name: target.name ?? null,
      details: JSON.stringify(details),
    })
    .execute();
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  address: string | null;
  action: string;
  target: { type: string; id: string | null; name: string | null };
  details: Record<string, unknown>;
}

export const MAX_AUDIT_PAGE = 200;

function decodeCursor(cursor: unknown): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (typeof cursor === 'string' && /^[0-9a-z]{26}$/.test(cursor)) return cursor;
  throw new ApiError(400, 'invalid_field', 'cursor is not a cursor returned by this API', { field: 'cursor' });
}

/** Newest first; the cursor is the last entry's id (ids sort by time), so pages hold still while entries arrive. */
export async function listAudit(
  db: Db,
  orgId: string | null,
  options: { cursor?: unknown; limit?: number },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  const after = decodeCursor(options.cursor);
  let q = db.selectFrom('audit_log').selectAll();
  q = orgId === null ? q.where('org_id', 'is', null) : q.where('org_id', '=', orgId);
  if (after) q = q.where('id', '<', after);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: new Date(Number(r.at)).toISOString(),
      actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
      address: r.address,
      action: r.action,
      target: { type: r.target_type, id: r.target_id, name: r.target_name },
      details: JSON.parse(r.details) as Record<string, unknown>,
    })),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}

/**
 * Removes entries older than their organisation's retention or AUDIT_MIN_DAYS, whichever is longer (the operator's
 * service-wide entries: AUDIT_MIN_DAYS). One statement: safe on several instances at once.
 */
export async function purgeAudit(db: Db, now = Date.now()): Promise<number> {
  const minMs = AUDIT_MIN_DAYS * DAY_MS;
  const r = await db
    .deleteFrom('audit_log')
    .where((eb) =>
      eb.or([
        eb.and([eb('org_id', 'is', null), eb('at', '<', now - minMs)]),
        eb(
          'at',
          '<',
          sql<number>`cast(${now} as bigint) - (select case when o.retention_days > ${AUDIT_MIN_DAYS} then o.retention_days else ${AUDIT_MIN_DAYS} end from organisations o where o.id = audit_log.org_id) * cast(${DAY_MS} as bigint)`,
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
