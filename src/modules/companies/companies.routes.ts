import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { ListOf, PageQuery } from '../../platform/pagination.ts';
import { AbsenceTypeRef, CreateAbsenceTypeBody } from '../absence-types/absence-types.schemas.ts';
import { createAbsenceType } from '../absence-types/absence-types.service.ts';
import { Company, CreateCompanyBody } from './companies.schemas.ts';
import { createCompany, getCompany, listCompanies } from './companies.service.ts';

/** The operator's: create, list and read companies. */
export function companiesAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/companies',
      operationId: 'adminCreateCompany',
      summary: 'Create a company (with its sandbox)',
      body: CreateCompanyBody,
      responses: { 201: { description: 'The company.', schema: Company } },
    },
    async (request, reply) => reply.code(201).send(await createCompany(deps, request.body)),
  );
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'GET',
      url: '/admin/v1/companies',
      operationId: 'adminListCompanies',
      summary: "The deployment's companies (not their sandboxes: each names its own), by id",
      querystring: Type.Object(PageQuery, { additionalProperties: false }),
      responses: { 200: { description: 'A page of companies.', schema: ListOf(Company) } },
    },
    async (request) => listCompanies(deps, request.query),
  );
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'GET',
      url: '/admin/v1/companies/:id',
      operationId: 'adminGetCompany',
      summary: 'Get a company or a sandbox',
      params: CompanyParams,
      responses: { 200: { description: 'The company.', schema: Company } },
    },
    async (request) => getCompany(deps.db, request.params.id),
  );

  // A company's own absence type is the operator's to add here too (companies seed the built-in ones).
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/companies/:id/absence-types',
      operationId: 'adminCreateAbsenceType',
      summary: 'Add a custom absence type',
      params: CompanyParams,
      body: CreateAbsenceTypeBody,
      responses: { 201: { description: 'The absence type.', schema: AbsenceTypeRef } },
    },
    async (request, reply) => {
      await getCompany(deps.db, request.params.id);
      return reply
        .code(201)
        .send(await createAbsenceType(deps, { companyId: request.params.id }, request.body));
    },
  );
}
