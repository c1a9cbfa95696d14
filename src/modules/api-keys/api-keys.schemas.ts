import { Type } from 'typebox';
import { Instant, Nullable, NullableInstant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { SCOPES } from '../../platform/scopes.ts';

export const ScopeSchema = Type.Enum(SCOPES, { type: 'string' });
const Mode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

export const KeyKind = named(
  'ApiKeyKind',
  Type.Enum(['integration', 'terminal'], {
    type: 'string',
    description:
      "integration: records made elsewhere, at any time (not the worker's own). terminal: a clocking device; its check-ins within 10 minutes are the worker's own.",
  }),
);

export const ApiKey = named(
  'ApiKey',
  Type.Object({
    id: Uuid(),
    name: Nullable(Type.String()),
    mode: Mode,
    company_id: Uuid('The tenant the key acts on: the company (live) or its sandbox (test).'),
    scopes: Type.Array(ScopeSchema, { maxItems: SCOPES.length }),
    prefix: Type.String({ description: 'The first characters of the secret, to recognise the key.' }),
    kind: KeyKind,
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
    expires_at: NullableInstant(),
    revoked_at: NullableInstant(),
    revoked_reason: Nullable(Type.String()),
    last_used_at: NullableInstant(),
    last_used_ip: Nullable(Type.String()),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const ApiKeyWithSecret = Type.Intersect([
  ApiKey,
  Type.Object({ secret: Type.String({ description: 'The key itself. Shown once, never again.' }) }),
]);

export const ListApiKeysQuery = named(
  'ListApiKeysQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);

export const CreateApiKeyBody = Type.Object(
  {
    mode: Mode,
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    kind: Type.Optional(KeyKind),
  },
  { additionalProperties: false },
);

/** Issuance from the dashboard: the mode is the live/test switch's, so the body has no `mode`. */
export const DashboardCreateKeyBody = Type.Object(
  {
    scopes: CreateApiKeyBody.properties.scopes,
    name: CreateApiKeyBody.properties.name,
    expires_in_days: CreateApiKeyBody.properties.expires_in_days,
    kind: CreateApiKeyBody.properties.kind,
  },
  { additionalProperties: false },
);
