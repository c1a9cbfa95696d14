import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { CalendarDate, IdParams, NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import {
  applyRotaPattern,
  createRotaPattern,
  createShiftTemplate,
  listRotaPatterns,
  listShiftTemplates,
} from './rota.service.ts';
import {
  ApplyRotaPatternBody,
  BulkShiftsBody,
  BulkShiftsResult,
  CreateRotaPatternBody,
  CreateShiftBody,
  CreateShiftTemplateBody,
  ListShiftsQuery,
  ListTemplatesQuery,
  PublishResult,
  PublishShiftsBody,
  RotaApplied,
  RotaPattern,
  Shift,
  ShiftTemplate,
  UpdateShiftBody,
} from './shifts.schemas.ts';
import {
  bulkShifts,
  createShift,
  deleteShift,
  getShift,
  listShifts,
  markWorkerShiftsSeen,
  publishShifts,
  updateShift,
  workerShifts,
} from './shifts.service.ts';

const tag = 'Shifts';

/** Planned time (issue 38): shifts, their templates and rota patterns. */
export function shiftsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/shifts',
    tag,
    scope: 'org:turnos:read',
    item: Shift,
    querystring: ListShiftsQuery,
    noun: { one: 'shift', many: 'shifts' },
    list: (tenant, query) => listShifts(deps, tenant, query),
    get: (tenant, id) => getShift(deps, tenant, id),
  });
  route(
    app,
    {
      method: 'POST',
      url: '/v1/shifts',
      operationId: 'createShift',
      summary: 'Plan a shift',
      description: 'A date that has passed is 409; an overlap or a date outside the employment, 422.',
      tag,
      scope: 'org:turnos:write',
      body: CreateShiftBody,
      responses: { 201: { description: 'The shift.', schema: Shift } },
      errors: ['conflict'],
    },
    async (request, reply) =>
      reply.code(201).send(await createShift(deps, requireTenant(request), request.body)),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/shifts/bulk',
      operationId: 'bulkShifts',
      summary: 'Create or replace shifts',
      description:
        'All or nothing. An item with `id` replaces that shift; errors name the index (`shifts/3/end`).',
      tag,
      scope: 'org:turnos:write',
      body: BulkShiftsBody,
      // 5,000 shifts with their notes pass the app's 1 MiB.
      bodyLimit: 8 * 1024 * 1024,
      responses: { 200: { description: 'Their ids.', schema: BulkShiftsResult } },
      errors: ['conflict'],
    },
    async (request) => await bulkShifts(deps, requireTenant(request), request.body.shifts),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/shifts/publish',
      operationId: 'publishShifts',
      summary: 'Publish drafts',
      description: 'Drafts of a range (62 days at most), of `employee_ids` or all, not of past dates.',
      tag,
      scope: 'org:turnos:write',
      body: PublishShiftsBody,
      responses: { 200: { description: 'How many were published.', schema: PublishResult } },
    },
    async (request) => await publishShifts(deps, requireTenant(request), request.body),
  );
  route(
    app,
    {
      method: 'PATCH',
      url: '/v1/shifts/:id',
      operationId: 'updateShift',
      summary: 'Change a shift',
      description: 'Not of or to a date that has passed (409).',
      tag,
      scope: 'org:turnos:write',
      params: IdParams,
      body: UpdateShiftBody,
      responses: { 200: { description: 'The shift.', schema: Shift } },
      errors: ['conflict'],
    },
    async (request) => await updateShift(deps, requireTenant(request), request.params.id, request.body),
  );
  route(
    app,
    {
      method: 'DELETE',
      url: '/v1/shifts/:id',
      operationId: 'deleteShift',
      summary: 'Delete a shift',
      description: 'Not of a date that has passed (409).',
      tag,
      scope: 'org:turnos:write',
      params: IdParams,
      responses: { 204: { description: 'Deleted.', schema: null } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      await deleteShift(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
  route(
    app,
    {
      method: 'GET',
      url: '/v1/shift-templates',
      operationId: 'listShiftTemplates',
      summary: 'List shift templates',
      tag,
      scope: 'org:turnos:read',
      querystring: ListTemplatesQuery,
      responses: { 200: { description: 'A page of templates.', schema: ListOf(ShiftTemplate) } },
    },
    async (request) => await listShiftTemplates(deps, requireTenant(request), request.query),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/shift-templates',
      operationId: 'createShiftTemplate',
      summary: 'Create a shift template',
      tag,
      scope: 'org:turnos:write',
      body: CreateShiftTemplateBody,
      responses: { 201: { description: 'The template.', schema: ShiftTemplate } },
    },
    async (request, reply) =>
      reply.code(201).send(await createShiftTemplate(deps, requireTenant(request), request.body)),
  );
  route(
    app,
    {
      method: 'GET',
      url: '/v1/rota-patterns',
      operationId: 'listRotaPatterns',
      summary: 'List rota patterns',
      tag,
      scope: 'org:turnos:read',
      querystring: ListTemplatesQuery,
      responses: { 200: { description: 'A page of rota patterns.', schema: ListOf(RotaPattern) } },
    },
    async (request) => await listRotaPatterns(deps, requireTenant(request), request.query),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/rota-patterns',
      operationId: 'createRotaPattern',
      summary: 'Create a rota pattern',
      description: 'With `apply`, applied at once.',
      tag,
      scope: 'org:turnos:write',
      body: CreateRotaPatternBody,
      responses: {
        201: { description: 'The pattern (and what applying it did).', schema: RotaPattern },
      },
      errors: ['conflict'],
    },
    async (request, reply) =>
      reply.code(201).send(await createRotaPattern(deps, requireTenant(request), request.body)),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/rota-patterns/:id/apply',
      operationId: 'applyRotaPattern',
      summary: 'Apply a rota pattern',
      description:
        '`from` is the cycle’s first day; each working day becomes a draft, replacing drafts; dates with a published shift, past or outside the employment are skipped.',
      tag,
      scope: 'org:turnos:write',
      params: IdParams,
      body: ApplyRotaPatternBody,
      responses: { 200: { description: 'What applying it did.', schema: RotaApplied } },
      errors: ['conflict'],
    },
    async (request) => await applyRotaPattern(deps, requireTenant(request), request.params.id, request.body),
  );
}

/** The worker's "Mis turnos" in the portal: their published shifts, and a badge for changes not yet seen. */
export function shiftsPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: '/portal/api/shifts',
      operationId: 'portalShifts',
      summary: 'The worker’s published shifts (default: this week and next)',
      scope: null,
      querystring: Type.Object(
        { from: Type.Optional(CalendarDate()), to: Type.Optional(CalendarDate()) },
        { additionalProperties: false },
      ),
      responses: {
        200: {
          description: 'The shifts, and how many were published or changed since the worker last looked.',
          schema: Type.Object({
            from: CalendarDate(),
            to: CalendarDate(),
            data: Type.Array(Shift),
            unseen: Type.Integer(),
          }),
        },
      },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await workerShifts(deps, tenant, employee.id, request.query);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: '/portal/api/shifts/seen',
      operationId: 'portalShiftsSeen',
      summary: 'The worker has seen their shifts (the badge clears)',
      scope: null,
      body: NoBody,
      responses: { 204: { description: 'Noted.', schema: null } },
    },
    async (request, reply) => {
      const { tenant, employee } = requireWorker(request);
      await markWorkerShiftsSeen(deps, tenant, employee.id);
      return reply.code(204).send();
    },
  );
}
