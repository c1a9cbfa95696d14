import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { ImportEmployeesBody, ImportResult, ImportShiftsBody, ShiftImportResult } from './imports.schemas.ts';
import { importEmployees } from './imports.service.ts';
import { importShifts } from './shift-imports.service.ts';

/** The file an import takes: a staff list of a few thousand rows, base64 in JSON. */
const IMPORT_BODY_LIMIT = 12 * 1024 * 1024;

/** The dashboard's imports into the live company (issue 39): preview, then all or nothing. */
export function importsDashboardRoutes(api: FastifyInstance, deps: AppDeps): void {
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/imports/employees',
      operationId: 'dashboardImportEmployees',
      summary:
        'Import employees from a CSV or XLSX staff list: a preview with each row’s errors, or all or nothing',
      scope: null,
      body: ImportEmployeesBody,
      bodyLimit: IMPORT_BODY_LIMIT,
      errors: ['billing_required', 'role_forbidden'],
      responses: {
        200: { description: 'Every row, with its errors or its employee.', schema: ImportResult },
      },
    },
    async (request) => await importEmployees(deps, requireTenant(request), request.body),
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/imports/shifts',
      operationId: 'dashboardImportShifts',
      summary:
        'Import a week plan from a CSV or XLSX: a row per employee and week, a column per day; drafts, all or none',
      scope: null,
      body: ImportShiftsBody,
      bodyLimit: IMPORT_BODY_LIMIT,
      errors: ['role_forbidden'],
      responses: {
        200: { description: 'Every row, with its errors and its shifts.', schema: ShiftImportResult },
      },
    },
    async (request) => await importShifts(deps, requireTenant(request), request.body),
  );
}
