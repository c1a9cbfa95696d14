import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AbsenceTypeRef, CreateAbsenceTypeBody } from '../modules/absence-types/absence-types.schemas.ts';
import { createAbsenceType } from '../modules/absence-types/absence-types.service.ts';
import { Admin, CreateAdminBody } from '../modules/admins/admins.schemas.ts';
import { createAdmin } from '../modules/admins/admins.service.ts';
import { ApiKey, ApiKeyWithSecret, CreateApiKeyBody } from '../modules/api-keys/api-keys.schemas.ts';
import {
  issueApiKey,
  listCompanyApiKeys,
  revokeApiKeyAsAdmin,
} from '../modules/api-keys/api-keys.service.ts';
import { advanceFakeClock, syncFakeClock } from '../modules/clock/clock.service.ts';
import { Company, CreateCompanyBody, UpdateCompanyBody } from '../modules/companies/companies.schemas.ts';
import { createCompany, getCompany, listCompanies } from '../modules/companies/companies.service.ts';
import { CreateHolidayBody, Holiday } from '../modules/holidays/holidays.schemas.ts';
import { createHoliday } from '../modules/holidays/holidays.service.ts';
import { changeCompany } from '../modules/lifecycle/lifecycle.service.ts';
import { CreateLocationBody, Location, UpdateLocationBody } from '../modules/locations/locations.schemas.ts';
import { createLocation, updateLocation } from '../modules/locations/locations.service.ts';
import { RegistryVerification, VerifyRegistryQuery } from '../modules/registry/registry.schemas.ts';
import { CreateUnitBody, Unit } from '../modules/units/units.schemas.ts';
import { createUnit } from '../modules/units/units.service.ts';
import { verifyRegistry } from '../modules/verification/verification.service.ts';
import { IdParams, Instant, Uuid } from '../platform/common.schemas.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { registerOpenApi } from '../platform/openapi.ts';
import { route } from '../platform/operation.ts';
import { ListOf, PageQuery } from '../platform/pagination.ts';
import { safeEqual, sha256 } from '../platform/secrets.ts';
import { formatInstant } from '../time/clock.ts';

const TAG = 'Admin';

/** The operator surface at /admin/v1, enabled by JORNADA_ADMIN_TOKEN; kept out of the public OpenAPI. */
export async function adminPlugin(
  app: FastifyInstance,
  deps: AppDeps & { adminToken: string },
): Promise<void> {
  const expected = sha256(deps.adminToken);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.scope === 'public') return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !safeEqual(sha256(match[1]), expected)) {
      throw new ApiError('unauthenticated', 'Send the admin token as "Authorization: Bearer <token>".');
    }
  });
  await registerOpenApi(app, {
    surface: 'admin',
    title: 'Jornada admin API',
    description: 'Operator and dashboard surface of a Jornada deployment. Not part of the public contract.',
    routePrefix: '/admin/v1/openapi.json',
    tags: [
      {
        name: 'Admin',
        description: 'Operator routes: companies, keys, administrators, organisation data, the fake clock.',
      },
    ],
  });
  const admin = { tag: TAG, scope: null, surface: 'admin' } as const;
  const CompanyParams = IdParams;

  route(
    app,
    {
      ...admin,
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
      ...admin,
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
      ...admin,
      method: 'GET',
      url: '/admin/v1/companies/:id',
      operationId: 'adminGetCompany',
      summary: 'Get a company or a sandbox',
      params: CompanyParams,
      responses: { 200: { description: 'The company.', schema: Company } },
    },
    async (request) => getCompany(deps.db, request.params.id),
  );
  route(
    app,
    {
      ...admin,
      method: 'PATCH',
      url: '/admin/v1/companies/:id',
      operationId: 'adminUpdateCompany',
      summary: 'Change company fields, service state, key policy and vacation policy',
      params: CompanyParams,
      body: UpdateCompanyBody,
      responses: { 200: { description: 'The company.', schema: Company } },
    },
    async (request) => changeCompany(deps, { companyId: request.params.id }, request.body),
  );
  route(
    app,
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/companies/:id/admins',
      operationId: 'adminCreateAdmin',
      summary: 'Create a company administrator (a dashboard login)',
      description:
        'Emails are unique in the deployment (409 otherwise). The password is stored as a scrypt hash.',
      params: CompanyParams,
      body: CreateAdminBody,
      errors: ['conflict'],
      responses: { 201: { description: 'The administrator.', schema: Admin } },
    },
    async (request, reply) =>
      reply.code(201).send(await createAdmin(deps, { companyId: request.params.id }, request.body)),
  );
  route(
    app,
    {
      ...admin,
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
      ...admin,
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
      ...admin,
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
  route(
    app,
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/companies/:id/locations',
      operationId: 'adminCreateLocation',
      summary: 'Create a location in a company or sandbox',
      params: CompanyParams,
      body: CreateLocationBody,
      responses: { 201: { description: 'The location.', schema: Location } },
    },
    async (request, reply) =>
      reply.code(201).send(await createLocation(deps, { companyId: request.params.id }, request.body)),
  );
  route(
    app,
    {
      ...admin,
      method: 'PATCH',
      url: '/admin/v1/companies/:id/locations/:locationId',
      operationId: 'adminUpdateLocation',
      summary: 'Change a location: name, time zone, address, contribution account code (CCC)',
      params: Type.Object({ id: Uuid(), locationId: Uuid() }, { additionalProperties: false }),
      body: UpdateLocationBody,
      responses: { 200: { description: 'The location.', schema: Location } },
    },
    async (request) =>
      updateLocation(deps, { companyId: request.params.id }, request.params.locationId, request.body),
  );
  route(
    app,
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/companies/:id/units',
      operationId: 'adminCreateUnit',
      summary: 'Create a unit in a company or sandbox',
      params: CompanyParams,
      body: CreateUnitBody,
      responses: { 201: { description: 'The unit.', schema: Unit } },
    },
    async (request, reply) =>
      reply.code(201).send(await createUnit(deps, { companyId: request.params.id }, request.body)),
  );
  route(
    app,
    {
      ...admin,
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
  route(
    app,
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/companies/:id/holidays',
      operationId: 'adminCreateHoliday',
      summary: 'Add a company holiday',
      description:
        'A holiday dated in a closed month of the company is 409 conflict (`errors.closed_month`): it would change that month’s figures.',
      params: CompanyParams,
      body: CreateHolidayBody,
      responses: { 201: { description: 'The holiday.', schema: Holiday } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      await getCompany(deps.db, request.params.id);
      return reply.code(201).send(await createHoliday(deps, { companyId: request.params.id }, request.body));
    },
  );

  route(
    app,
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/registry/verify',
      operationId: 'adminVerifyRegistry',
      summary: 'Verify the registry: chains, facts, closings and figures, listing every problem found',
      querystring: VerifyRegistryQuery,
      responses: { 200: { description: 'The verification.', schema: RegistryVerification } },
    },
    async (request) => verifyRegistry(deps, request.query.company_id ?? null),
  );

  const ClockView = Type.Object({ now: Instant() });
  const fakeClock = deps.fakeClock;
  const requireFakeClock = () => {
    if (!fakeClock) throw notFound('Route');
    return fakeClock;
  };
  route(
    app,
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/clock',
      operationId: 'adminGetClock',
      summary: "The service's clock (only with JORNADA_FAKE_CLOCK=1)",
      errors: ['not_found'],
      responses: { 200: { description: 'Now.', schema: ClockView } },
    },
    async () => {
      const clock = requireFakeClock();
      await syncFakeClock(deps.db, clock);
      return { now: formatInstant(clock.now()) };
    },
  );
  route(
    app,
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/clock/advance',
      operationId: 'adminAdvanceClock',
      summary: 'Move the fake clock forward (only with JORNADA_FAKE_CLOCK=1)',
      body: Type.Object(
        { seconds: Type.Number({ exclusiveMinimum: 0, maximum: 10 * 365 * 24 * 3600 }) },
        { additionalProperties: false },
      ),
      errors: ['not_found'],
      responses: { 200: { description: 'The new now.', schema: ClockView } },
    },
    async (request) => {
      const clock = requireFakeClock();
      await advanceFakeClock(deps.db, clock, request.body.seconds);
      return { now: formatInstant(clock.now()) };
    },
  );
}
