import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { named, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { RegistryPolicy } from '../companies/companies.schemas.ts';
import { getOrganization } from './organization.service.ts';

const Organization = named(
  'Organization',
  Type.Object({
    id: Uuid('The tenant: the company for a live key, its sandbox for a test key.'),
    name: Type.String(),
    timezone: Type.String(),
    registry_policy: RegistryPolicy,
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    sandbox: Type.Boolean(),
    seats: Type.Integer(),
    active_employees: Type.Integer(),
    rate_limit_per_minute: Type.Integer(),
    monthly_quota: Type.Integer(),
  }),
);

export function organizationRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/organization',
      operationId: 'getOrganization',
      summary: 'Introspect the calling tenant',
      tag: 'Organization',
      scope: null,
      responses: { 200: { description: 'The tenant of the calling key.', schema: Organization } },
    },
    async (request) => getOrganization(deps, requireTenant(request)),
  );
}
