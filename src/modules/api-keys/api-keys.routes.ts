import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { ApiKey, ListApiKeysQuery } from './api-keys.schemas.ts';
import { listApiKeys, revokeApiKeyAsTenant } from './api-keys.service.ts';

export function apiKeysRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/api-keys',
      operationId: 'listApiKeys',
      summary: 'List the API keys of the tenant',
      description: 'Keys are listed without their secrets.',
      tag: 'API keys',
      scope: 'api_keys:manage',
      querystring: ListApiKeysQuery,
      responses: { 200: { description: 'A page of API keys.', schema: ListOf(ApiKey) } },
    },
    async (request) => listApiKeys(deps, [requireTenant(request)], request.query),
  );

  route(
    app,
    {
      method: 'DELETE',
      url: '/v1/api-keys/:id',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description:
        'Any key may revoke itself. Revoking another key of the tenant needs `api_keys:manage`. Works while the subscription is inactive.',
      tag: 'API keys',
      scope: null,
      allowInactiveService: true,
      params: IdParams,
      responses: { 204: { description: 'Revoked.', schema: null } },
    },
    async (request, reply) => {
      await revokeApiKeyAsTenant(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
