// Named schemas for /docs/json. A domain marks a schema with `named('Run', schema)`; the document then lists it once
// in `components.schemas` and every use of that same object becomes a `$ref`, so that client generators give it a type
// of its own. The mark is a symbol: Fastify's validation and serialisation, and JSON, never see it.
import type { TSchema } from 'typebox';

const COMPONENT = Symbol('openapi component');

type Marked = { [COMPONENT]?: string };
// biome-ignore lint/suspicious/noExplicitAny: walks arbitrary JSON Schema and OpenAPI objects
type Json = any;

/** Gives a schema its name in the document's `components.schemas`; returns the same object. */
export function named<T extends TSchema>(name: string, schema: T): T {
  (schema as T & Marked)[COMPONENT] = name;
  return schema;
}

export const componentName = (schema: unknown): string | undefined =>
  typeof schema === 'object' && schema !== null ? (schema as Marked)[COMPONENT] : undefined;

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// Keywords whose value is a schema, an array of schemas, or a map of names to schemas. Data keywords (`examples`,
// `default`, `enum`, `const`) are never walked: an example that happens to be a named object stays an example.
const SCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'contentSchema']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs']);

/**
 * A copy of `schema` in which every named subschema is a `$ref`, its definition added to `components` (once; a second,
 * different schema under a taken name is a mistake and throws). The schema itself stays inline unless `refSelf`.
 */
export function hoistComponents(schema: Json, components: Record<string, Json>, refSelf = true): Json {
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = componentName(schema);
  if (name !== undefined && refSelf) {
    const known = components[name];
    if (known === undefined) {
      components[name] = {}; // taken before the walk, so that a schema that nests itself ends
      components[name] = hoistComponents(schema, components, false);
      definitions.set(components[name], schema);
    } else if (definitions.get(known) !== schema) {
      throw new Error(`Two different schemas are named "${name}" in the OpenAPI document`);
    }
    return componentRef(name);
  }
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA.has(key)) copy[key] = hoistComponents(value, components);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value))
      copy[key] = value.map((member) => hoistComponents(member, components));
    else if (SCHEMA_MAP.has(key) && typeof value === 'object' && value !== null)
      copy[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hoistComponents(v, components)]));
    else copy[key] = value;
  }
  return copy;
}

// Which source object each definition came from: the same name twice is fine only for the same schema.
const definitions = new WeakMap<object, object>();

/** The same for a response or request body object: `{ description, content: { <type>: { schema } } }`. */
export function hoistInContent(entry: Json, components: Record<string, Json>): Json {
  if (typeof entry !== 'object' || entry === null) return entry;
  if (!entry.content) return hoistComponents(entry, components, false);
  const content = Object.fromEntries(
    Object.entries<Json>(entry.content).map(([type, media]) => [
      type,
      { ...media, schema: hoistComponents(media.schema, components) },
    ]),
  );
  return { ...entry, content };
}
