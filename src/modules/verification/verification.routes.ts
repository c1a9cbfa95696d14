import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { RegistryVerification, VerifyRegistryQuery } from '../registry/registry.schemas.ts';
import { verifyRegistry } from './verification.service.ts';

/** The operator's: verify the registry of record. */
export function verificationAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'GET',
      url: '/admin/v1/registry/verify',
      operationId: 'adminVerifyRegistry',
      summary: 'Verify the registry: chains, facts, closings and figures, listing every problem found',
      querystring: VerifyRegistryQuery,
      responses: { 200: { description: 'The verification.', schema: RegistryVerification } },
    },
    async (request) => verifyRegistry(deps, request.query.company_id ?? null),
  );
}
