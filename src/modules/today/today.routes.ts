import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { Charts, Today } from './today.schemas.ts';
import { charts, today } from './today.service.ts';

/** The dashboard's home: today at a glance, and the charts. */
export function todayDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/today',
      operationId: `dashboard${mode}Today`,
      summary: 'Today at a glance: who is in, pending approvals, problem days, the month so far',
      scope: null,
      responses: { 200: { description: 'Today.', schema: Today } },
    },
    async (request) => today(deps, requireTenant(request)),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/charts',
      operationId: `dashboard${mode}Charts`,
      summary:
        'The home page’s charts: weeks worked against expected, the month’s overtime, the year’s absences',
      scope: null,
      responses: { 200: { description: 'Charts.', schema: Charts } },
    },
    async (request) => charts(deps, requireTenant(request)),
  );
}
