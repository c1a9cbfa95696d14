import { type TLiteral, type TSchema, type TUnion, Type } from 'typebox';
import { REGIONS } from '../time/regions.ts';

/** The keyword that names a schema for the OpenAPI description (platform/openapi.ts moves it to components). */
export const COMPONENT_KEYWORD = 'x-component';

/** Marks a named schema whose description tells its use (kept beside each `$ref`, not in the component). */
export const USE_DESCRIPTION = 'x-use-description';

/** An id: one `Uuid` component in the OpenAPI description, its description (what it identifies) beside each use. */
export const Uuid = (description?: string) =>
  named(
    'Uuid',
    Type.String({
      format: 'uuid',
      maxLength: 36,
      ...(description ? { description } : {}),
      [USE_DESCRIPTION]: true,
    }),
  );
export const Instant = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });
export const CalendarDate = (description?: string) =>
  Type.String({ format: 'date', maxLength: 10, ...(description ? { description } : {}) });
export const TimeZoneName = (description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: description ?? 'IANA time zone, e.g. Europe/Madrid.',
  });
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Uuid() }, { additionalProperties: false });

/** An instant that may be absent (null): one `NullableInstant` component, referred to wherever it is used. */
export const NullableInstant = () => named('NullableInstant', Nullable(Instant()));

/**
 * Names a schema: the OpenAPI description lists it once under components.schemas and refers to it by `$ref`
 * wherever it is used, so that clients get `components["schemas"]["Employee"]`. Validation and serialization
 * ignore the keyword.
 */
export function named<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { [COMPONENT_KEYWORD]: name });
}

/** A union of string literals from a constant list, typed as that union (a plain map() would type it never). */
export function literals<const V extends readonly string[]>(values: V) {
  return Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<{
    -readonly [K in keyof V]: TLiteral<V[K]>;
  }>;
}

/** The body of an action that takes none: left out, or `{}`; any field is unknown (422). */
export const NoBody = named('EmptyBody', Type.Object({}, { additionalProperties: false }));

/** Who did something the registry keeps: an API key, an administrator, an employee, or the system. */
export const Actor = (description: string) =>
  named(
    'Actor',
    Type.Object(
      {
        type: Type.Enum(['api_key', 'admin', 'employee', 'system']),
        id: Type.String({
          description: 'The API key, administrator or employee id; for `system`, what wrote it.',
        }),
        key_kind: Type.Optional(
          Type.Enum(['integration', 'terminal'], {
            type: 'string',
            description: "A check-in's key kind.",
          }),
        ),
      },
      { description, [USE_DESCRIPTION]: true },
    ),
  );

/** A Spanish identity number as written (spaces, dots, hyphens and slashes are dropped before checking). */
export const IdentityNumber = (description: string) =>
  Type.String({ minLength: 1, maxLength: 24, description });

/** An autonomous community of Spain by its ISO 3166-2 code (ES-CT): it chooses a calendar's regional holidays. */
export const Region = (description: string) =>
  named('Region', Type.Enum([...REGIONS], { type: 'string', description, [USE_DESCRIPTION]: true }));
