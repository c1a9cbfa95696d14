import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';
import type { ActingTenant } from '../../platform/tenant.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import { hashPassword, verifyPassword } from '../admins/password.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { findEmployee } from '../employees/employees.service.ts';
import {
  deletePortalSession,
  findAccountByEmail,
  findLivePortalSession,
  insertInvitation,
  insertPortalSession,
  retireInvitations,
  upsertAccount,
  useInvitation,
} from './portal.repo.ts';

/**
 * The workers' portal (docs/registry.md, The workers' portal): a company invites a worker with a single-use
 * link; the worker sets a password and then records and reads their own time. A worker's session acts as the
 * employee (`recorded_by: { type: "employee" }`) on that worker's data alone.
 */
export const INVITATION_DAYS = 7;
export const PORTAL_SESSION_COOKIE = 'jornada_portal';
/** A worker's session lasts 12 hours from login. */
export const PORTAL_SESSION_SECONDS = 12 * 3600;
export const MIN_PASSWORD_LENGTH = 12;

export type PortalSession = {
  id: string;
  company_id: string;
  employee_id: string;
  csrf_token: string;
  expires_at: Date;
};

const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Invites a worker: a new single-use link valid 7 days (the employee's earlier unused links stop working), and,
 * when the service sends mail, the link by email too. The link's token is stored only as its SHA-256.
 */
export async function inviteWorker(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl' | 'mailer'>,
  tenant: ActingTenant,
  employeeId: string,
): Promise<{ url: string; expires_at: string; emailed: boolean }> {
  const { db, clock } = deps;
  const now = clock.now();
  const token = randomBytes(32).toString('base64url');
  const expires = now.add({ hours: INVITATION_DAYS * 24 });
  const employee = await db.transaction().execute(async (tx) => {
    const found = await findEmployee(tx, tenant.companyId, employeeId, { lock: true });
    if (!found) throw notFound('Employee');
    if (tenant.actor.type === 'employee') throw notFound('Employee');
    await retireInvitations(tx, tenant.companyId, found.id, toDate(now));
    await insertInvitation(tx, {
      company_id: tenant.companyId,
      id: newId(),
      employee_id: found.id,
      token_hash: sha256(token),
      created_by_type: tenant.actor.type,
      created_by_id: tenant.actor.id,
      created_at: toDate(now),
      expires_at: toDate(expires),
    });
    return found;
  });
  const url = `${deps.publicUrl}/portal/invitation?token=${token}`;
  let emailed = false;
  if (deps.mailer) {
    await deps.mailer.send({
      to: employee.email,
      subject: 'Tu acceso al registro de jornada / Your time registry access',
      text: [
        `Hola, ${employee.first_name}:`,
        '',
        'Tu empresa te invita a registrar tu jornada y consultar tu registro en Jornada.',
        `Abre este enlace para crear tu contraseña (caduca en ${INVITATION_DAYS} días y sirve una sola vez):`,
        url,
        '',
        `Hello ${employee.first_name},`,
        '',
        'Your company invites you to record your working time and see your registry in Jornada.',
        `Open this link to set your password (it expires in ${INVITATION_DAYS} days and works once):`,
        url,
        '',
      ].join('\n'),
    });
    emailed = true;
  }
  return { url, expires_at: expires.toString({ smallestUnit: 'second' }), emailed };
}

async function newSession(
  db: Db,
  clock: Clock,
  worker: { company_id: string; employee_id: string },
): Promise<{ token: string; session: PortalSession }> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const session: PortalSession = {
    id: newId(),
    company_id: worker.company_id,
    employee_id: worker.employee_id,
    csrf_token: randomBytes(32).toString('base64url'),
    expires_at: toDate(now.add({ seconds: PORTAL_SESSION_SECONDS })),
  };
  await insertPortalSession(db, { ...session, token_hash: sha256(token), created_at: toDate(now) });
  return { token, session };
}

/**
 * Accepts an invitation: sets the worker's password (12 characters or more) and opens a session. An unknown,
 * used or expired token is 404 (the link says nothing about why); an email already used by another worker's
 * login is 409.
 */
export async function acceptInvitation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: { token: string; password: string },
): Promise<{ token: string; session: PortalSession }> {
  const { db, clock } = deps;
  if ([...input.password].length < MIN_PASSWORD_LENGTH) {
    throw invalid({ password: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
  }
  const passwordHash = await hashPassword(input.password);
  const at = toDate(clock.now());
  const worker = await db.transaction().execute(async (tx) => {
    const invitation = await useInvitation(tx, sha256(input.token), at);
    if (!invitation) {
      throw new ApiError('not_found', 'This invitation does not exist, was used already or has expired.');
    }
    const employee = await findEmployee(tx, invitation.company_id, invitation.employee_id, { lock: true });
    if (!employee) throw new ApiError('not_found', 'This invitation does not exist.');
    const key = emailKey(employee.email);
    const taken = await findAccountByEmail(tx, key);
    if (taken && (taken.company_id !== invitation.company_id || taken.employee_id !== employee.id)) {
      throw new ApiError(
        'conflict',
        'Another worker’s login uses this email. Ask your company to change it.',
      );
    }
    await upsertAccount(tx, {
      company_id: invitation.company_id,
      employee_id: employee.id,
      email_key: key,
      password_hash: passwordHash,
      created_at: at,
      updated_at: at,
    });
    return invitation;
  });
  return await newSession(db, clock, worker);
}

/** A worker's login: a session, or null when the email or the password is wrong. */
export async function loginWorker(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: { email: string; password: string },
): Promise<{ token: string; session: PortalSession } | null> {
  const account = await findAccountByEmail(deps.db, emailKey(input.email));
  // A missing account costs a hash too, so the answer's timing does not tell which emails have a login.
  const valid = await verifyPassword(input.password, account?.password_hash ?? (await dummyHash()));
  if (!account || !valid) return null;
  return await newSession(deps.db, deps.clock, account);
}

let dummy: Promise<string> | null = null;
const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
};

export async function findPortalSession(db: Db, clock: Clock, token: string): Promise<PortalSession | null> {
  return (await findLivePortalSession(db, sha256(token), toDate(clock.now()))) ?? null;
}

export async function endPortalSession(db: Db, session: PortalSession): Promise<void> {
  await deletePortalSession(db, session.company_id, session.id);
}

/**
 * The tenant a worker's session acts in: their company (its account's settings), as the employee; and the
 * company's name, which the portal shows.
 */
export async function workerTenant(
  db: Db,
  session: PortalSession,
): Promise<{ tenant: ActingTenant; companyName: string }> {
  const { account, tenant } = await loadAccount(db, session.company_id);
  return {
    tenant: {
      companyId: tenant.id,
      accountId: account.id,
      timezone: account.timezone,
      actor: { type: 'employee', id: session.employee_id },
    },
    companyName: tenant.name,
  };
}
