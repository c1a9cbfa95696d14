import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import {
  ContractPeriod,
  CreateEmployeeBody,
  Employee,
  EmployeeSearchQuery,
  ListEmployeesQuery,
  TerminateEmployeeBody,
  UpdateEmployeeBody,
} from './employees.schemas.ts';
import {
  contractHistory,
  createEmployee,
  getEmployee,
  listEmployees,
  terminateEmployee,
  updateEmployee,
} from './employees.service.ts';

const tag = 'Employees';

export function employeesRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/employees',
    tag,
    scope: 'org:empleados:read',
    item: Employee,
    querystring: ListEmployeesQuery,
    noun: { one: 'employee', many: 'employees', article: 'an' },
    list: (tenant, query) => listEmployees(deps, tenant, query),
    get: (tenant, id) => getEmployee(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'GET',
      url: '/v1/employees/:id/contract-history',
      operationId: 'getEmployeeContractHistory',
      summary: "List an employee's contract periods",
      description:
        'The effective-dated values of `work_schedule` and `vacation_days_per_year`, oldest first, each with who recorded it and when. All on one page.',
      tag,
      scope: 'org:empleados:read',
      params: IdParams,
      responses: { 200: { description: 'The contract periods.', schema: ListOf(ContractPeriod) } },
    },
    async (request) => contractHistory(deps, requireTenant(request), request.params.id),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/employees',
      operationId: 'createEmployee',
      summary: 'Create an employee',
      description:
        'Takes a seat of the plan; with none free, 402 billing_required. A hire date in or before a closed month of the registry is 409 conflict. Emits `employee.created`.',
      tag,
      scope: 'org:empleados:write',
      body: CreateEmployeeBody,
      responses: { 201: { description: 'The new employee.', schema: Employee } },
      errors: ['billing_required', 'conflict'],
    },
    async (request, reply) => {
      const employee = await createEmployee(deps, requireTenant(request), request.body);
      return reply.code(201).send(employee);
    },
  );

  route(
    app,
    {
      method: 'PATCH',
      url: '/v1/employees/:id',
      operationId: 'updateEmployee',
      summary: 'Update an employee',
      description:
        'Changes any writable field but `status`. `work_schedule`, `vacation_days_per_year` and `timezone` apply from `effective_from` (default today); earlier days keep theirs. Emits `employee.updated`; changing nothing is a no-op. 409 conflict: a change reaching a closed month (`errors.closed_month`), or employment dates leaving an active check-in outside (`errors.check_in_id`).',
      tag,
      scope: 'org:empleados:write',
      params: IdParams,
      body: UpdateEmployeeBody,
      responses: { 200: { description: 'The updated employee.', schema: Employee } },
      errors: ['conflict'],
    },
    async (request) => updateEmployee(deps, requireTenant(request), request.params.id, request.body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/employees/:id/terminate',
      operationId: 'terminateEmployee',
      summary: 'Terminate an employee',
      description:
        'Sets `status` to `terminated`, which frees a seat, and emits `employee.terminated`. No check-in can be recorded after the termination date. Terminating again is 409 conflict, as is a termination date in a closed month (`errors.closed_month`) or before an active check-in (`errors.check_in_id`).',
      tag,
      scope: 'org:empleados:write',
      params: IdParams,
      body: TerminateEmployeeBody,
      responses: { 200: { description: 'The terminated employee.', schema: Employee } },
      errors: ['conflict'],
    },
    async (request) => terminateEmployee(deps, requireTenant(request), request.params.id, request.body ?? {}),
  );
}

/** The dashboard's search of employees. */
export function employeesDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/employees/search',
      operationId: `dashboardSearch${mode}Employees`,
      summary: 'Employees by name, email or external id, and status',
      scope: null,
      querystring: EmployeeSearchQuery,
      responses: { 200: { description: 'A page of employees.', schema: ListOf(Employee) } },
    },
    async (request) =>
      listEmployees(deps, requireTenant(request), {
        limit: request.query.limit,
        cursor: request.query.cursor,
        status: request.query.status,
        search: request.query.q,
      }),
  );
}
