import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { MonthParams } from '../registry/registry.schemas.ts';
import {
  Access,
  AccessGrant,
  AccessGrantWithUrl,
  Acknowledgement,
  CreateAccessGrantBody,
  ListAccessGrantsQuery,
} from './access.schemas.ts';
import { createGrant, getGrant, listAccesses, listGrants, revokeGrant } from './access.service.ts';
import { listAcknowledgements } from './acknowledgements.service.ts';

const tag = 'Time registry';

export function registryAccessRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/registry/access-grants',
    tag,
    scope: 'org:informes:read',
    item: AccessGrant,
    querystring: ListAccessGrantsQuery,
    noun: { one: 'registry access grant', many: 'registry access grants' },
    listDescription: 'Oldest first. The secret link is shown only when a grant is created.',
    list: (tenant, query) => listGrants(deps, tenant, query),
    get: (tenant, id) => getGrant(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'POST',
      url: '/v1/registry/access-grants',
      operationId: 'createRegistryAccessGrant',
      summary: 'Grant read-only access to the registry (Inspección, representatives)',
      description:
        'A secret link to a read-only view of the registry for some days and, optionally, workers: `inspection` sees their full registry, `representatives` per-worker totals by name only. Expires at `expires_at` (≤ 90 days), revocable, every use logged. Never replayed for an Idempotency-Key. Until 2027-11-30 `org:fichajes:write` works too, with Deprecation and Sunset.',
      tag,
      scope: 'org:registro:write',
      legacyScope: 'org:fichajes:write',
      body: CreateAccessGrantBody,
      idempotency: 'never',
      responses: { 201: { description: 'The grant with its link, shown once.', schema: AccessGrantWithUrl } },
    },
    async (request, reply) =>
      reply.code(201).send(await createGrant(deps, requireTenant(request), request.body)),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/registry/months/:month/acknowledgements',
      operationId: 'listRegistryMonthAcknowledgements',
      summary: 'Who has acknowledged a closed month',
      description:
        'Every employee employed in the closed month, in id order, with `acknowledged_at` (null: not yet). A month not closed is 404.',
      tag,
      scope: 'org:fichajes:read',
      params: MonthParams,
      querystring: ListAccessGrantsQuery,
      responses: { 200: { description: 'A page of acknowledgements.', schema: ListOf(Acknowledgement) } },
    },
    async (request) =>
      listAcknowledgements(deps, requireTenant(request), request.params.month, request.query),
  );

  route(
    app,
    {
      method: 'DELETE',
      url: '/v1/registry/access-grants/:id',
      operationId: 'revokeRegistryAccessGrant',
      summary: 'Revoke a registry access grant',
      description:
        'The link answers 404 from now on (and each try is logged). Revoking again changes nothing.',
      tag,
      scope: 'org:registro:write',
      legacyScope: 'org:fichajes:write',
      params: IdParams,
      responses: { 204: { description: 'Revoked.', schema: null } },
    },
    async (request, reply) => {
      await revokeGrant(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/registry/access-grants/:id/accesses',
      operationId: 'listRegistryAccesses',
      summary: 'List the uses of a registry access grant',
      description: 'Every page view and download through the link, oldest first, with its time and address.',
      tag,
      scope: 'org:informes:read',
      params: IdParams,
      querystring: ListAccessGrantsQuery,
      responses: { 200: { description: 'A page of accesses.', schema: ListOf(Access) } },
    },
    async (request) => listAccesses(deps, requireTenant(request), request.params.id, request.query),
  );
}
