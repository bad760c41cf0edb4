/**
 * Whether a database error is a foreign-key violation, on either dialect: a row written for a parent (a run for
 * its recording) that another transaction deleted after the parent was read.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return (
    e?.code === '23503' ||
    e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    /FOREIGN KEY constraint failed/i.test(e?.message ?? '')
  );
}
