/** Whether a database error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return (
    e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '')
  );
}
