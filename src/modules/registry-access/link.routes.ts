import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { route } from '../../platform/operation.ts';
import { grantSummary, monthCsv, openGrant, workerMonth, workerMonthPdf } from './access.service.ts';

const OPERATION = { tag: 'Registry access', surface: 'registry-access', scope: 'public' } as const;
const Token = Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
const Month = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });
const Summary = Type.Object({}, { additionalProperties: true });

/**
 * The read-only registry behind an access grant's link (docs/registry.md): no login, the link's token is the
 * credential, in the path (`/registry-access/<token>/api/…`) or as `Authorization: Bearer <token>`
 * (`/registry-access/api/…`). Every request opens the grant again, which logs the access.
 */
export function registryAccessLinkRoutes(app: FastifyInstance, deps: AppDeps): void {
  const bearer = (request: FastifyRequest): string => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
      throw new ApiError(
        'unauthenticated',
        'Send the access link’s token as "Authorization: Bearer <token>".',
      );
    }
    return token;
  };

  for (const form of ['path', 'bearer'] as const) {
    const base = form === 'path' ? '/registry-access/:token/api' : '/registry-access/api';
    const tokenOf = (request: FastifyRequest) =>
      form === 'path' ? (request.params as { token: string }).token : bearer(request);
    // The handlers read only the extra parameters (the token comes through tokenOf), so the schema is typed by
    // them: a path form's token is validated by the schema all the same.
    const params = <T extends Record<string, ReturnType<typeof Uuid> | typeof Month>>(extra: T) =>
      Type.Object({ ...(form === 'path' ? { token: Token } : {}), ...extra } as T, {
        additionalProperties: false,
      });

    route(
      app,
      {
        ...OPERATION,
        method: 'GET',
        url: `${base}/summary`,
        operationId: `registryAccessSummary${form}`,
        summary: 'The company, period, months and covered workers of an access grant',
        params: params({}),
        responses: { 200: { description: 'The summary.', schema: Summary } },
      },
      async (request) => {
        const opened = await openGrant(deps, tokenOf(request), { ip: request.ip, what: 'summary' });
        return await grantSummary(deps, opened);
      },
    );

    route(
      app,
      {
        ...OPERATION,
        method: 'GET',
        url: `${base}/workers/:employeeId/:month.pdf`,
        operationId: `registryAccessWorkerMonthPdf${form}`,
        summary: 'One covered worker’s month as the PDF document (Inspección only)',
        params: params({ employeeId: Uuid(), month: Month }),
        responses: {
          200: { description: 'The PDF.', schema: Type.String(), contentTypes: ['application/pdf'] },
        },
      },
      async (request, reply) => {
        const { employeeId, month } = request.params;
        const opened = await openGrant(deps, tokenOf(request), {
          ip: request.ip,
          what: `pdf ${employeeId} ${month}`,
        });
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="registro-${month}-${employeeId}.pdf"`)
          .send(await workerMonthPdf(deps, opened, employeeId, month));
      },
    );

    route(
      app,
      {
        ...OPERATION,
        method: 'GET',
        url: `${base}/months/:month.csv`,
        operationId: `registryAccessMonthCsv${form}`,
        summary: 'A month of the covered workers as CSV (the registry rows, or totals for representatives)',
        params: params({ month: Month }),
        responses: {
          200: { description: 'The CSV.', schema: Type.String(), contentTypes: ['text/csv'] },
        },
      },
      async (request, reply) => {
        const { month } = request.params;
        const opened = await openGrant(deps, tokenOf(request), { ip: request.ip, what: `csv ${month}` });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="registro-${month}.csv"`)
          .send(await monthCsv(deps, opened, month));
      },
    );

    route(
      app,
      {
        ...OPERATION,
        method: 'GET',
        url: `${base}/workers/:employeeId/:month`,
        operationId: `registryAccessWorkerMonth${form}`,
        summary: 'One covered worker’s month (full registry, or totals for representatives)',
        params: params({ employeeId: Uuid(), month: Month }),
        responses: { 200: { description: 'The worker’s month.', schema: Summary } },
      },
      async (request) => {
        const { employeeId, month } = request.params;
        const opened = await openGrant(deps, tokenOf(request), {
          ip: request.ip,
          what: `worker ${employeeId} ${month}`,
        });
        return await workerMonth(deps, opened, employeeId, month);
      },
    );
  }
}
