// OpenAPI shapes of POST /recordings/search (documentation only: the route checks its body in code, so that each
// failure answers its own code and field).
import { Type } from 'typebox';
import { named } from '../http/openapi-components.js';
import { Nullable, TimeBound } from '../recordings/api-schemas.js';

export const SearchResult = named(
  'SearchResult',
  Type.Object({
    data: Type.Object({
      recordings: Type.Array(
        Type.Object({
          id: Type.String(),
          mediaKey: Type.String(),
          analysisId: Type.String(),
          startTimestamp: Type.Integer(),
          deviceKey: Nullable(Type.String()),
          matches: Type.Array(
            Type.Object({
              runId: Type.String(),
              label: Type.String({ description: "The track's label, or `object`" }),
              count: Type.Integer({
                description: "How many of the run's centroids with that label lie inside the region",
              }),
            }),
            { description: 'One per (run, label), sorted by runId then label' },
          ),
        }),
        {
          description:
            'Newest first; fewer than `limit`, even none, when the page reached the work one request may do (then nextCursor is set)',
        },
      ),
      nextCursor: Nullable(
        Type.String({
          description:
            'Pass back as `cursor` for the next page, also after a short or empty page; null on the last page',
        }),
      ),
    }),
  }),
);

const Point = Type.Object({ x: Type.Number(), y: Type.Number() });
export const SearchBody = named(
  'SearchRequest',
  Type.Object(
    {
      region: Type.Union([
        Type.Object(
          {
            points: Type.Array(Point, { minItems: 3, maxItems: 1000 }),
            width: Type.Optional(
              Type.Number({
                exclusiveMinimum: 0,
                description: 'Canvas width; without width and height the points are normalized (0–1)',
              }),
            ),
            height: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
          },
          { description: 'A polygon in canvas pixels' },
        ),
        Type.Object(
          {
            x: Type.Number(),
            y: Type.Number(),
            w: Type.Number({ exclusiveMinimum: 0 }),
            h: Type.Number({ exclusiveMinimum: 0 }),
          },
          { description: 'A normalized rectangle' },
        ),
      ]),
      labels: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Any of these track labels' }),
      ),
      from: Type.Optional(TimeBound('Earliest recording start')),
      to: Type.Optional(TimeBound('Latest recording start')),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
      cursor: Type.Optional(Type.String({ description: 'The nextCursor of the previous page' })),
    },
    { examples: [{ region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['person'] }] },
  ),
);
