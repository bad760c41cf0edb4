// Request validation: Fastify's own Ajv compiler, but bodies are validated without type coercion. Coercion is
// right for the querystring, params and headers (everything there arrives as text: `?limit=10` is a number),
// but a JSON body already says what its types are: `{"username": ["ann"]}` or `{"width": "100"}` is a client
// error to answer with 400, not a value to convert.
import AjvCompiler from '@fastify/ajv-compiler';

interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type Compile = (route: RouteSchema) => unknown;

const pool = AjvCompiler() as unknown as (externalSchemas: unknown, options: { customOptions?: object }) => Compile;

/** Fastify's schemaController.compilersFactory.buildValidator. */
export const buildValidator = ((externalSchemas: unknown, options: { customOptions?: object }) => {
  const coercing = pool(externalSchemas, options);
  const strict = pool(externalSchemas, {
    ...options,
    customOptions: { ...options?.customOptions, coerceTypes: false },
  });
  return (route: RouteSchema) => (route.httpPart === 'body' ? strict : coercing)(route);
}) as unknown as AjvCompiler.BuildCompilerFromPool;
