import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams, named } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { type RouteSurface, route } from '../../platform/operation.ts';
import { deriveKey } from '../../platform/secrets.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { CreateReportBody, DownloadQuery, Report, ReportAccepted } from './reports.schemas.ts';
import {
  CONTENT_TYPES,
  createReport,
  type DownloadSigner,
  getReport,
  listRecentReports,
  openDownload,
} from './reports.service.ts';

const tag = 'Reports';

export function downloadSigner(deps: Pick<AppDeps, 'instanceSecret' | 'publicUrl'>): DownloadSigner {
  return { key: deriveKey(deps.instanceSecret, 'report-download'), publicUrl: deps.publicUrl };
}

/** The dashboard mounts these routes too, without the download (its links point at /v1). */
export function reportsRoutes(app: FastifyInstance, deps: AppDeps, surface: RouteSurface = 'api'): void {
  const signer = downloadSigner(deps);

  route(
    app,
    {
      method: 'POST',
      url: '/v1/reports',
      operationId: 'createReport',
      summary: 'Request a report',
      description:
        'Queues the generation of a file: `time_registry_monthly` (the legal monthly time registry, csv) or `check_ins_export` (csv or xlsx). Poll `GET /v1/reports/{id}` or subscribe to `report.completed`. A company may have 10 reports processing at once (an operator setting); past that, 429 `rate_limited` with Retry-After.',
      tag,
      scope: 'org:informes:read',
      body: CreateReportBody,
      responses: { 202: { description: 'Accepted: the report is processing.', schema: ReportAccepted } },
    },
    async (request, reply) => {
      const accepted = await createReport(deps, requireTenant(request), request.body);
      return reply.code(202).send(accepted);
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/reports/:id',
      operationId: 'getReport',
      summary: 'Get a report',
      description:
        'A completed report carries a `download_url` minted fresh by each GET: valid 5 minutes, for one download.',
      tag,
      scope: 'org:informes:read',
      params: IdParams,
      responses: { 200: { description: 'The report.', schema: Report } },
    },
    async (request) => getReport({ ...deps, signer }, requireTenant(request), request.params.id),
  );

  if (surface === 'dashboard') return;
  route(
    app,
    {
      method: 'GET',
      url: '/v1/reports/:id/download',
      operationId: 'downloadReport',
      summary: 'Download a report file',
      description:
        'Authenticated by the signed address alone (an Authorization header is ignored): single use, valid 5 minutes. An expired, used or altered address is 403 `unauthenticated` (`errors.reason` says which); an unknown report is 404. Not rate limited and not counted.',
      tag,
      scope: 'public',
      params: IdParams,
      querystring: DownloadQuery,
      responses: {
        200: {
          description: "The file: CSV (UTF-8 with a byte-order mark) or XLSX, by the report's format.",
          schema: named('ReportFile', Type.String({ format: 'binary' })),
          contentTypes: Object.values(CONTENT_TYPES),
        },
      },
      errors: ['not_found'],
      problemStatuses: [403],
    },
    async (request, reply) => {
      const file = await openDownload({ ...deps, signer }, request.params.id, request.query, request.log);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
}

/** The dashboard's latest reports. */
export function reportsDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  const signer = downloadSigner(deps);
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/reports',
      operationId: `dashboardList${mode}Reports`,
      summary: 'The latest 20 reports, newest first',
      scope: null,
      responses: { 200: { description: 'Reports.', schema: Type.Object({ data: Type.Array(Report) }) } },
    },
    async (request) => ({
      data: await listRecentReports({ ...deps, signer }, requireTenant(request), 20),
    }),
  );
}
