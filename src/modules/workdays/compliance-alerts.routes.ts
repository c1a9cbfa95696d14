import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { ComplianceAlert, ListComplianceAlertsQuery } from './compliance-alerts.schemas.ts';
import { acknowledgeComplianceAlert, listComplianceAlerts } from './compliance-alerts.ts';

/** Legal-limit alerts (issue 38): the public listing. */
export function complianceAlertsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/compliance-alerts',
      operationId: 'listComplianceAlerts',
      summary: 'List legal-limit alerts',
      description: 'Kept current as the records change.',
      tag: 'Work summaries',
      scope: 'org:fichajes:read',
      querystring: ListComplianceAlertsQuery,
      responses: { 200: { description: 'A page of alerts.', schema: ListOf(ComplianceAlert) } },
    },
    async (request) => await listComplianceAlerts(deps, requireTenant(request), request.query),
  );
}

/** The dashboard's: an administrator acknowledges an open alert. */
export function complianceAlertsDashboardRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  mode: 'live' | 'test',
): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/compliance-alerts/:id/acknowledge',
      operationId: `dashboard${mode}AcknowledgeComplianceAlert`,
      summary: 'Acknowledge an open legal-limit alert',
      scope: null,
      params: IdParams,
      responses: { 200: { description: 'The alert.', schema: ComplianceAlert } },
    },
    async (request) => await acknowledgeComplianceAlert(deps, requireTenant(request), request.params.id),
  );
}
