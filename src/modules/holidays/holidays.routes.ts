import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { tenantScopeOf } from '../../db/companies.ts';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import {
  CreateHolidayBody,
  Holiday,
  HolidayYear,
  ListHolidaysQuery,
  RegionalCalendarChange,
  YearHolidaysQuery,
} from './holidays.schemas.ts';
import {
  applyRegionalCalendar,
  createHoliday,
  deleteHoliday,
  listHolidays,
  listYearHolidays,
} from './holidays.service.ts';

/** The public API's (and the dashboard's): the holidays of a year, of the company or of one work centre. */
export function holidaysRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/holidays',
      operationId: 'listHolidays',
      summary: 'List holidays',
      description:
        'A year’s holidays by date: with `location_id`, its employees’ calendar; without, all of the company’s.',
      tag: 'Absences',
      scope: 'org:ausencias:read',
      querystring: YearHolidaysQuery,
      responses: { 200: { description: 'The holidays.', schema: HolidayYear } },
    },
    async (request) => await listYearHolidays(deps, requireTenant(request), request.query),
  );
}

/** A company's holidays in the dashboard (live or test): list a range, add one, remove one. */
export function holidaysDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/holidays/range',
      operationId: `dashboard${mode}Holidays`,
      summary: 'The company’s holidays from one date to another (at most a year)',
      scope: null,
      querystring: ListHolidaysQuery,
      responses: { 200: { description: 'Holidays.', schema: Type.Object({ data: Type.Array(Holiday) }) } },
    },
    async (request) => listHolidays(deps, requireTenant(request), request.query),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/holidays',
      operationId: `dashboard${mode}CreateHoliday`,
      summary: 'Add a company holiday (nobody is expected to work that date)',
      scope: null,
      body: CreateHolidayBody,
      responses: { 201: { description: 'The holiday.', schema: Holiday } },
    },
    async (request, reply) => {
      reply.code(201);
      return await createHoliday(deps, requireTenant(request), request.body);
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/holidays/import',
      operationId: `dashboard${mode}ImportHolidays`,
      summary: 'Apply the shipped calendar: the national and regional holidays of every work centre’s region',
      scope: null,
      responses: { 200: { description: 'What changed.', schema: RegionalCalendarChange } },
    },
    async (request) => (await applyRegionalCalendar(deps, requireTenant(request))).calendar,
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'DELETE',
      url: '/holidays/:id',
      operationId: `dashboard${mode}DeleteHoliday`,
      summary: 'Remove a company holiday (its date is a working day again; refused in a closed month)',
      scope: null,
      params: IdParams,
      responses: { 204: { description: 'Removed.', schema: null } },
    },
    async (request, reply) => {
      await deleteHoliday(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/** The operator's: add a holiday to a company. */
export function holidaysAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
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
      if (!(await tenantScopeOf(deps.db, request.params.id))) throw notFound('Company');
      return reply.code(201).send(await createHoliday(deps, { companyId: request.params.id }, request.body));
    },
  );
}
