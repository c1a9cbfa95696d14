import { expect } from 'vitest';
import type { Response, TestContext } from './context.ts';

export type DashboardSession = {
  cookie: string;
  csrf: string;
  /** A dashboard API call with the session cookie, and X-CSRF-Token on anything but GET. */
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
};

let sequence = 0;

/**
 * Creates an administrator for the company through the admin API and returns its credentials: an owner, unless
 * a role (and a team lead's units) is given.
 */
export async function createAdmin(
  ctx: TestContext,
  companyId: string,
  role: { role?: 'owner' | 'admin' | 'team_lead' | 'payroll'; unit_ids?: string[] } = {},
) {
  sequence += 1;
  const email = `admin${sequence}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = `correct horse battery ${sequence}`;
  const response = await ctx.admin.post(`/admin/v1/companies/${companyId}/admins`, {
    email,
    password,
    ...role,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { email, password, id: response.json().id as string };
}

export function login(ctx: TestContext, email: string, password: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/dashboard/api/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  }) as Promise<Response>;
}

/** Logs in (200 expected) and returns a session client. */
export async function dashboardSession(ctx: TestContext, email: string, password: string) {
  return sessionFrom(ctx, await login(ctx, email, password));
}

/** The session client of a login's answer (200 expected): a password's or a passkey's. */
export function sessionFrom(ctx: TestContext, response: Response): DashboardSession {
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = String(response.headers['set-cookie']);
  const cookie = setCookie.split(';')[0] ?? '';
  const csrf = response.json().csrf_token as string;
  const session: DashboardSession = {
    cookie,
    csrf,
    call: (method, url, body, headers = {}) =>
      ctx.app.inject({
        method: method as 'GET',
        url,
        headers: {
          cookie,
          ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      }) as Promise<Response>,
  };
  return session;
}
