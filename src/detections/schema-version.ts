export const IMPLEMENTED_SCHEMA_VERSION = '1.0';
const SUPPORTED_MAJOR = 1;

export type SchemaVersionCheck =
  | { ok: true; minorMismatch: boolean }
  | { ok: false; code: 'schema_version_missing' | 'unsupported_schema_version'; detail: string };

export function checkSchemaVersion(value: unknown): SchemaVersionCheck {
  if (value === undefined || value === null) {
    return { ok: false, code: 'schema_version_missing', detail: 'schemaVersion is required (for example "1.0")' };
  }
  const match = typeof value === 'string' ? /^(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(value) : null;
  if (!match) {
    return {
      ok: false,
      code: 'unsupported_schema_version',
      detail: 'schemaVersion must be MAJOR[.MINOR[.PATCH]], for example "1.0"',
    };
  }
  if (Number(match[1]) !== SUPPORTED_MAJOR) {
    return {
      ok: false,
      code: 'unsupported_schema_version',
      detail: `schemaVersion major ${Number(match[1])} is not supported; send ${IMPLEMENTED_SCHEMA_VERSION}`,
    };
  }
  return { ok: true, minorMismatch: match[2] !== undefined && Number(match[2]) > 0 };
}
