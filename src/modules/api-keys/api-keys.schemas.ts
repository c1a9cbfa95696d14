import { Type } from 'typebox';
import { Instant, literals, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { SCOPES } from '../../platform/scopes.ts';

export const ScopeSchema = literals(SCOPES);
const Mode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

export const KeyKind = Type.Union([Type.Literal('integration'), Type.Literal('terminal')], {
  type: 'string',
  description:
    "integration: sends records made elsewhere, at any time (its check-ins are not the worker's own record and ask the worker to accept them). terminal: a clocking device that records a punch at the moment it is made (its check-ins recorded within 10 minutes of their timestamp are the worker's own). Set at creation, never changed.",
});

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
    expires_at: Nullable(Instant()),
    revoked_at: Nullable(Instant()),
    revoked_reason: Nullable(Type.String()),
    last_used_at: Nullable(Instant()),
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
    kind: Type.Optional({ ...KeyKind, description: 'integration (the default) or terminal.' }),
  },
  { additionalProperties: false },
);
