import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { ListOf, PageQuery } from '../../platform/pagination.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import {
  ApiKey,
  ApiKeyWithSecret,
  CreateApiKeyBody,
  DashboardCreateKeyBody,
  ListApiKeysQuery,
} from './api-keys.schemas.ts';
import {
  issueApiKey,
  listApiKeys,
  listCompanyApiKeys,
  revokeApiKeyAsAdmin,
  revokeApiKeyAsTenant,
} from './api-keys.service.ts';

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

/** The dashboard's: issue a key of the switch's mode. */
export function apiKeysDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/api-keys',
      operationId: `dashboardCreate${mode}Key`,
      summary: 'Issue a key of this mode (secret shown once)',
      scope: null,
      body: DashboardCreateKeyBody,
      errors: ['conflict', 'addon_disabled'],
      responses: { 201: { description: 'The key with its secret.', schema: ApiKeyWithSecret } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const key = await issueApiKey(deps, { companyId: tenant.accountId }, { ...request.body, mode });
      return reply.code(201).send(key);
    },
  );
}

/** The operator's: issue, list and revoke a company's keys. */
export function apiKeysAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/companies/:id/api-keys',
      operationId: 'adminCreateApiKey',
      summary: 'Issue an API key (live keys act on the company, test keys on its sandbox)',
      params: CompanyParams,
      body: CreateApiKeyBody,
      errors: ['conflict', 'addon_disabled'],
      responses: { 201: { description: 'The key, with its secret shown once.', schema: ApiKeyWithSecret } },
    },
    async (request, reply) =>
      reply.code(201).send(await issueApiKey(deps, { companyId: request.params.id }, request.body)),
  );
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'GET',
      url: '/admin/v1/companies/:id/api-keys',
      operationId: 'adminListApiKeys',
      summary: "List a company's live keys and its sandbox's test keys",
      params: CompanyParams,
      querystring: Type.Object(PageQuery, { additionalProperties: false }),
      responses: { 200: { description: 'A page of keys.', schema: ListOf(ApiKey) } },
    },
    async (request) => listCompanyApiKeys(deps, { companyId: request.params.id }, request.query),
  );
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'DELETE',
      url: '/admin/v1/api-keys/:id',
      operationId: 'adminRevokeApiKey',
      summary: 'Revoke a key (reason revoked_by_admin)',
      params: IdParams,
      responses: { 204: { description: 'Revoked.', schema: null } },
    },
    async (request, reply) => {
      await revokeApiKeyAsAdmin(deps, request.params.id);
      return reply.code(204).send();
    },
  );
}
