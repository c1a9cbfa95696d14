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
  CreateRotaPatternBody,
  CreateShiftBody,
  CreateShiftTemplateBody,
  ListShiftsQuery,
  ListTemplatesQuery,
  PublishResult,
  PublishShiftsBody,
  RotaApplied,
  RotaPattern,
  RotaPatternCreated,
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
    listDescription:
      'Shifts by `updated_at`, drafts and published, filtered by employee, work centre, status and date range; `updated_since` keeps a copy in sync (a deleted shift is gone from the list: follow `shift.deleted`).',
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
      description:
        'A shift on a date that has passed is 409 conflict; overlapping another shift of the employee, or outside the employment, is 422. A published shift emits `shift.published` and plans its day’s expected minutes.',
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
      summary: 'Create or replace up to 5,000 shifts at once',
      description:
        'All or nothing, in one transaction. An item with `id` replaces that shift. Every problem is listed in `errors` by the item’s index (`shifts/3/end`); a date that has passed is 409 conflict.',
      tag,
      scope: 'org:turnos:write',
      body: BulkShiftsBody,
      responses: {
        200: {
          description: 'The shifts, in the order given.',
          schema: Type.Object({ data: Type.Array(Shift) }),
        },
      },
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
      summary: 'Publish the drafts of a range',
      description:
        'The drafts from `from` to `to` (at most 62 days), of `employee_ids` or everyone, become published: visible to the workers, planning their days. Drafts of dates that have passed stay drafts. Emits `shift.published` for each.',
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
      description:
        'Not a shift of a date that has passed, nor to such a date (409). A published shift emits `shift.updated`; a draft published by `status` emits `shift.published`.',
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
      description: 'Not a shift of a date that has passed (409). A published one emits `shift.deleted`.',
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
      summary: 'Create a rota pattern, and apply it',
      description:
        'A cycle of days, each a shift template or rest (null). With `apply`, it is applied at once: see `POST /v1/rota-patterns/{id}/apply`.',
      tag,
      scope: 'org:turnos:write',
      body: CreateRotaPatternBody,
      responses: {
        201: { description: 'The pattern and what applying it did.', schema: RotaPatternCreated },
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
      summary: 'Apply a rota pattern to employees over a range',
      description:
        'Day `from` is the cycle’s first; each working day becomes a draft shift from its template. Drafts already there are replaced; dates with a published shift, dates that have passed and dates outside the employment are skipped. Publish the drafts with `POST /v1/shifts/publish`.',
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
