import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { DASHBOARD_OPERATION, requireSession } from '../../platform/sessions.ts';
import { CreateLocationBody, ListLocationsQuery, Location, UpdateLocationBody } from './locations.schemas.ts';
import { createLocation, getLocation, listLocations, updateLocation } from './locations.service.ts';

export function locationsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/locations',
    tag: 'Organization structure',
    scope: 'org:empleados:read',
    item: Location,
    querystring: ListLocationsQuery,
    noun: { one: 'location', many: 'locations' },
    list: (tenant, query) => listLocations(deps, tenant, query),
    get: (tenant, id) => getLocation(deps, tenant, id),
  });
}

/** The operator's: create and change a company's work centres. */
export function locationsAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
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
      ...ADMIN_OPERATION,
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
}

/** The dashboard's: change a work centre's address and CCC. */
export function locationsDashboardRoutes(api: FastifyInstance, deps: AppDeps): void {
  // Issue 39: an HR administrator creates the company's work centres, no longer only the operator.
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/locations',
      operationId: 'dashboardCreateLocation',
      summary: 'Create a work centre of the company: name, time zone, address, CCC, region, municipality',
      scope: null,
      body: CreateLocationBody,
      responses: { 201: { description: 'The location.', schema: Location } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createLocation(deps, { companyId: requireSession(request).company_id }, request.body)),
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'PATCH',
      url: '/dashboard/api/locations/:locationId',
      operationId: 'dashboardUpdateLocation',
      summary: 'Change a work centre: name, time zone, address, contribution account code (CCC)',
      scope: null,
      params: Type.Object({ locationId: Uuid() }, { additionalProperties: false }),
      body: UpdateLocationBody,
      responses: { 200: { description: 'The location.', schema: Location } },
    },
    async (request) =>
      updateLocation(
        deps,
        { companyId: requireSession(request).company_id },
        request.params.locationId,
        request.body,
      ),
  );
}
