import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from './deps.ts';
import { ApiError } from './errors.ts';
import { admitSession, secureCookies } from './session-gate.ts';
import type { ActingTenant, Credential } from './tenant.ts';

/**
 * The cookie sessions of the people who use the service in a browser (issue 36: one piece for the dashboard and
 * the portal): what a session is, how a surface admits it (platform/session-gate.ts: the CSRF token and the
 * person's window), how its cookie is set and cleared, and what a route reads of it. The modules that own the
 * people (admins, portal) find and make the sessions; the surfaces mount the routes.
 */

/** What every dashboard operation and every portal operation declares (their OpenAPI tag, their surface). */
export const DASHBOARD_OPERATION = { tag: 'Dashboard', surface: 'dashboard' } as const;
export const PORTAL_OPERATION = { tag: 'Portal', surface: 'portal' } as const;

/** A company administrator's dashboard session. */
export type AdminSession = {
  id: string;
  company_id: string;
  admin_id: string;
  email: string;
  /** The language the administrator chose for the dashboard; null: the company's default. */
  language: 'es' | 'en' | null;
  /** What the administrator may do (modules/admins/roles.ts), and the units a team lead leads. */
  role: 'owner' | 'admin' | 'team_lead' | 'payroll';
  unit_ids: string[];
  csrf_token: string;
  expires_at: Date;
  /** When and how the session was opened (absent on a session just made: now, as given). */
  created_at?: Date;
  credential_kind?: 'password' | 'passkey';
  passkey_id?: string | null;
};

/** A worker's portal session. */
export type WorkerSession = {
  id: string;
  company_id: string;
  employee_id: string;
  csrf_token: string;
  expires_at: Date;
  /** When the session started (the login or the acceptance of a link); absent on a session just made. */
  created_at?: Date;
  /** How the session was opened (migration 0046): a password (or a link), or a passkey. */
  credential_kind?: 'password' | 'passkey';
  passkey_id?: string | null;
};

/** What a portal route reads of the worker's employee row (read once per request, by the portal's gate). */
export type WorkerEmployee = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  status: 'active' | 'terminated';
  hire_date: string;
  termination_date: string | null;
  /** Their work centre (whether it asks for the position at the punch). */
  location_id: string | null;
};

/** The worker a portal request acts as: their company as a tenant (the worker as its actor), and their zone. */
export type ActingWorker = {
  session: WorkerSession;
  tenant: ActingTenant;
  companyName: string;
  employee: WorkerEmployee;
  zone: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard's session (set by the dashboard surface's gate). */
    session: AdminSession | null;
    /** The portal's session and the worker it acts as (set by the portal surface's gate). */
    portalSession: WorkerSession | null;
    worker: ActingWorker | null;
  }
}

export function requireSession(request: FastifyRequest): AdminSession {
  if (!request.session) throw new ApiError('unauthenticated', 'Log in to the dashboard first.');
  return request.session;
}

export function requireWorkerSession(request: FastifyRequest): WorkerSession {
  if (!request.portalSession) throw new ApiError('unauthenticated', 'Log in to the portal first.');
  return request.portalSession;
}

export function requireWorker(request: FastifyRequest): ActingWorker {
  if (!request.worker) throw new ApiError('unauthenticated', 'Log in to the portal first.');
  return request.worker;
}

/** Where each surface keeps its session cookie. */
export type SessionCookie = { name: string; path: string; maxAgeSeconds: number };

/** Sets a session's cookie: HttpOnly, SameSite=Strict, Secure over https, for the surface's path alone. */
export function setSessionCookie(
  deps: Pick<AppDeps, 'publicUrl'>,
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: SessionCookie,
  token: string,
): void {
  reply.setCookie(cookie.name, token, {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(deps, request),
    maxAge: cookie.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, cookie: SessionCookie): void {
  reply.clearCookie(cookie.name, { path: cookie.path });
}

/**
 * A surface's session gate, for every route but the public ones (logins): the session its cookie names (found by
 * `find`), admitted by admitSession (CSRF on writes, the person's per-minute window).
 */
export function sessionGate<S extends WorkerSession | AdminSession>(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  cookie: SessionCookie,
  where: string,
  find: (token: string) => Promise<S | null>,
) {
  return async (request: FastifyRequest): Promise<S | null> => {
    if (request.routeOptions.config.access?.scope === 'public') return null;
    const token = request.cookies[cookie.name];
    const session = token ? await find(token) : null;
    return await admitSession(deps, request, session, where);
  };
}

/**
 * How a session proves who its person is: what each approval it makes records (issue 35). A session just made
 * has no created_at yet: its start is its expiry less its lifetime.
 */
export function sessionCredential(
  session: Pick<WorkerSession, 'created_at' | 'expires_at' | 'credential_kind' | 'passkey_id'>,
  lifetimeSeconds: number,
): Credential {
  const started = (
    session.created_at ?? new Date(session.expires_at.getTime() - lifetimeSeconds * 1000)
  ).toISOString();
  return session.credential_kind === 'passkey' && session.passkey_id
    ? { kind: 'passkey', session_started_at: started, passkey_id: session.passkey_id }
    : { kind: 'password', session_started_at: started };
}
