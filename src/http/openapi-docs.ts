// What /docs shows beyond the route schemas. Applied to the document only: a response schema on the route itself
// would also drive Fastify's serializer, and a problem's extension members (`errors`, `mediaKeys`, `header`…)
// would be stripped from the real answers.
import type { FastifySchema } from 'fastify';
import { Type, type TSchema } from 'typebox';

const Problem = Type.Object({
  type: Type.String({ description: 'urn:sightline:problem:<code>' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String({ description: 'For people; may change between versions' }),
  code: Type.String({ description: 'Stable and machine-readable: the route description lists the codes it answers' }),
}, { additionalProperties: true });

const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: Problem } } });

const ERRORS = {
  '4xx': problemResponse('The request was refused: application/problem+json with a stable `code`, and extension members where the route says so'),
  '5xx': problemResponse('A failure on this side or at a storage provider (502/504): application/problem+json, never with credentials'),
};

// A mediaKey holds slashes, so the routes that take one end in a wildcard; OpenAPI has no name for `*`.
const WILDCARD = { key: Type.String({ description: 'A recording id, or its mediaKey as path segments or with %2F' }) };

interface RouteDoc { schema: FastifySchema; url: string }

/**
 * A route schema's member for answers shown in /docs only: as `response` it would drive Fastify's serializer too,
 * which drops every member it does not list.
 */
export const DOCUMENTED_RESPONSES = 'x-documented-responses';

/** A JSON answer with a description of its own: a bare schema would be listed as "Default Response". */
export const jsonResponse = (description: string, schema: TSchema) => ({ description, content: { 'application/json': { schema } } });

export function documentRoute({ schema, url }: RouteDoc): RouteDoc {
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const { [DOCUMENTED_RESPONSES]: documentedOnly, ...rest } = schema as FastifySchema & { [DOCUMENTED_RESPONSES]?: object };
  const documented: FastifySchema = { ...rest, response: { ...(schema.response as object | undefined), ...documentedOnly, ...ERRORS } };
  if (!url.endsWith('/*')) return { schema: documented, url };
  documented.params = Type.Object(WILDCARD);
  return { schema: documented, url: `${url.slice(0, -1)}{key}` };
}
