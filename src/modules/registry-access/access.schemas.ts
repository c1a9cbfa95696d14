import { Type } from 'typebox';
import {
  Actor,
  CalendarDate,
  Instant,
  Nullable,
  NullableInstant,
  named,
  Uuid,
} from '../../platform/common.schemas.ts';
import { PageQuery } from '../../platform/pagination.ts';

export const ACCESS_KINDS = ['inspection', 'representatives'] as const;
/** How far ahead a grant may expire. */
export const MAX_GRANT_DAYS = 90;

const grantFields = {
  id: Uuid(),
  kind: Type.Enum(ACCESS_KINDS, {
    description: '`inspection`: full registry; `representatives`: totals per worker by name only.',
  }),
  label: Type.String({ description: 'Who it is for, e.g. the inspector’s reference or the works council.' }),
  from: CalendarDate('First covered date.'),
  to: CalendarDate('Last covered date.'),
  employee_ids: Nullable(Type.Array(Uuid(), { description: 'The covered workers; null: all of them.' })),
  expires_at: Instant(),
  revoked_at: NullableInstant(),
  created_at: Instant(),
  created_by: Actor('Who made it.'),
  revoked_by: Nullable(Actor('Who revoked it.')),
};

export const AccessGrant = named('RegistryAccessGrant', Type.Object(grantFields));

export const AccessGrantWithUrl = named(
  'RegistryAccessGrantWithUrl',
  Type.Object({
    ...grantFields,
    url: Type.String({
      description:
        'The secret link `<public URL>/registry-access/<token>`, shown once; the token also works as `Authorization: Bearer <token>` on `/registry-access/api/…`.',
    }),
  }),
);

export const CreateAccessGrantBody = named(
  'CreateRegistryAccessGrantBody',
  Type.Object(
    {
      kind: Type.Enum(ACCESS_KINDS),
      label: Type.String({ minLength: 1, maxLength: 200 }),
      from: CalendarDate(),
      to: CalendarDate('On or after from, at most 4 years after it.'),
      employee_ids: Type.Optional(
        Type.Array(Uuid(), {
          minItems: 1,
          maxItems: 500,
          uniqueItems: true,
          description: 'Default: everyone.',
        }),
      ),
      expires_at: Instant(`In the future, at most ${MAX_GRANT_DAYS} days ahead.`),
    },
    { additionalProperties: false },
  ),
);

export const Access = named(
  'RegistryAccess',
  Type.Object({
    id: Uuid(),
    at: Instant(),
    ip: Type.String(),
    what: Type.String({ description: 'What was opened, e.g. `summary` or `worker <id> 2026-10`.' }),
    outcome: Type.Enum(['ok', 'revoked', 'expired'], {
      description: '`revoked` and `expired` were answered 404 and are logged all the same.',
    }),
    repeats: Type.Integer({ description: 'The same refusal repeated within a minute, counted here.' }),
  }),
);

export const ListAccessGrantsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const Acknowledgement = named(
  'RegistryAcknowledgement',
  Type.Object({
    employee_id: Uuid(),
    employee_name: Type.String(),
    acknowledged_at: Nullable(Instant('When the worker acknowledged the current version; null: not yet.')),
    version: Type.Integer({ description: '1 as closed, +1 per later correction.' }),
    acknowledged_version: Type.Union([Type.Integer(), Type.Null()]),
  }),
);
