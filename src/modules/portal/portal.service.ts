import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';
import { type ActingWorker, sessionCredential, type WorkerSession } from '../../platform/sessions.ts';
import type { ActingTenant } from '../../platform/tenant.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import { employeeTimeZone } from '../../time/zones.ts';
import { hashPassword, verifyPassword } from '../admins/password.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { authenticatePasskey, passkeyRefused, revokeWorkerPasskeys } from '../passkeys/passkeys.service.ts';
import { appendToChain } from '../registry/registry.service.ts';
import {
  deletePortalSession,
  findAccountByEmail,
  findAccountOf,
  findAccountsByEmail,
  findLivePortalSession,
  insertInvitation,
  insertPortalSession,
  MAX_LOGINS_PER_EMAIL,
  resetAccount,
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

export type PortalSession = WorkerSession;

const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Invites a worker to the portal, or, for a worker who already has a login, starts a reset (issue 35: the company
 * must not take a worker's login over quietly): the worker's sessions end at once, the old password stops
 * working, and the reset is an entry of the worker's chain that the portal shows and every later document of the
 * worker prints. Either way a new single-use link valid 7 days (earlier unused links stop working), stored only
 * as its SHA-256. When the service sends mail the link goes to the worker's email alone and the answer does not
 * hold it; otherwise the answer gives it, to hand to the worker.
 */
export async function inviteWorker(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl' | 'mailer'>,
  tenant: ActingTenant,
  employeeId: string,
): Promise<{ url?: string; expires_at: string; emailed: boolean; kind: 'invitation' | 'reset' }> {
  const { db, clock } = deps;
  const now = clock.now();
  const at = toDate(now);
  const token = randomBytes(32).toString('base64url');
  const expires = now.add({ hours: INVITATION_DAYS * 24 });
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  const { employee, kind } = await db.transaction().execute(async (tx) => {
    const found = await findEmployee(tx, tenant.companyId, employeeId, { lock: true });
    if (!found) throw notFound('Employee');
    if (tenant.actor.type === 'employee') throw notFound('Employee');
    const id = newId();
    const reset = (await findAccountOf(tx, tenant.companyId, found.id)) !== undefined;
    if (reset) {
      await resetAccount(tx, tenant.companyId, found.id, unusable, at);
      // The worker's passkeys go too (a worker who lost their device has no other way back); the entry names
      // them, so the reset's reach is on the record.
      const revoked = await revokeWorkerPasskeys(tx, tenant.companyId, found.id, at);
      await appendToChain(tx, tenant.companyId, found.id, {
        kind: 'credential_reset',
        subjectId: id,
        content: {
          employee_id: found.id,
          invitation_id: id,
          by: { type: tenant.actor.type, id: tenant.actor.id },
          at: at.toISOString(),
          ...(revoked.length > 0 ? { passkeys_revoked: revoked } : {}),
        },
        recordedAt: at,
      });
    }
    await retireInvitations(tx, tenant.companyId, found.id, at);
    await insertInvitation(tx, {
      company_id: tenant.companyId,
      id,
      employee_id: found.id,
      token_hash: sha256(token),
      created_by_type: tenant.actor.type,
      created_by_id: tenant.actor.id,
      created_at: at,
      expires_at: toDate(expires),
      kind: reset ? 'reset' : 'invitation',
    });
    return { employee: found, kind: reset ? ('reset' as const) : ('invitation' as const) };
  });
  const url = `${deps.publicUrl}/portal/invitation?token=${token}`;
  const answer = { expires_at: expires.toString({ smallestUnit: 'second' }), kind };
  if (!deps.mailer) return { url, ...answer, emailed: false };
  const lines =
    kind === 'reset'
      ? [
          `Hola, ${employee.first_name}:`,
          '',
          'Tu empresa ha restablecido tu acceso al registro de jornada: tu contraseña anterior ya no sirve y tus',
          'sesiones abiertas se han cerrado. Si no lo has pedido tú, díselo a tu representación legal.',
          `Abre este enlace para crear una contraseña nueva (caduca en ${INVITATION_DAYS} días y sirve una sola vez):`,
          url,
          '',
          `Hello ${employee.first_name},`,
          '',
          'Your company has reset your access to the time registry: your old password no longer works and your',
          'open sessions have ended. If you did not ask for it, tell your workers’ representatives.',
          `Open this link to set a new password (it expires in ${INVITATION_DAYS} days and works once):`,
          url,
          '',
        ]
      : [
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
        ];
  await deps.mailer.send({
    to: employee.email,
    subject:
      kind === 'reset'
        ? 'Tu acceso al registro de jornada se ha restablecido / Your time registry access was reset'
        : 'Tu acceso al registro de jornada / Your time registry access',
    text: lines.join('\n'),
  });
  // The link went to the worker alone: the company never holds it (issue 35).
  return { ...answer, emailed: true };
}

async function newSession(
  db: Db,
  clock: Clock,
  worker: { company_id: string; employee_id: string },
  passkeyId?: string,
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
  await insertPortalSession(db, {
    ...session,
    token_hash: sha256(token),
    created_at: toDate(now),
    ...(passkeyId ? { credential_kind: 'passkey', passkey_id: passkeyId } : {}),
  });
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
    // A login is per company (issue 35): the same email in another company neither blocks nor shows here.
    const taken = await findAccountByEmail(tx, invitation.company_id, key);
    if (taken && taken.employee_id !== employee.id) {
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
    // Who set the worker's password, and when, is in the worker's chain (issue 35).
    await appendToChain(tx, invitation.company_id, employee.id, {
      kind: 'credential_set',
      subjectId: invitation.id,
      content: {
        employee_id: employee.id,
        invitation_id: invitation.id,
        kind: invitation.kind,
        at: at.toISOString(),
      },
      recordedAt: at,
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
  const accounts = await findAccountsByEmail(deps.db, emailKey(input.email));
  // Every login of the email is checked, and as many hashes as the most an email may have, so the answer's
  // timing tells neither whether the email has a login nor in how many companies (issue 35). The password
  // chooses the company: the first login it opens, newest first.
  let opened: (typeof accounts)[number] | null = null;
  for (let index = 0; index < MAX_LOGINS_PER_EMAIL; index++) {
    const account = accounts[index];
    const valid = await verifyPassword(input.password, account?.password_hash ?? (await dummyHash()));
    if (account && valid && !opened) opened = account;
  }
  if (!opened) return null;
  return await newSession(deps.db, deps.clock, opened);
}

/**
 * A worker's sign-in with a passkey: the passkey names the worker and their company. It bypasses the password
 * throttle (a passkey cannot be guessed; issue 35: a flood of wrong passwords must not keep a worker from
 * clocking in). A worker whose login was reset has no passkey left (the reset revoked them).
 */
export async function loginWorkerWithPasskey(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  response: AuthenticationResponseJSON,
): Promise<{ token: string; session: PortalSession }> {
  const { companyId, ownerId, passkeyId } = await authenticatePasskey(deps, 'portal', response);
  if (!(await findAccountOf(deps.db, companyId, ownerId))) {
    throw passkeyRefused();
  }
  return await newSession(deps.db, deps.clock, { company_id: companyId, employee_id: ownerId }, passkeyId);
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

/** The worker a portal session acts as: their company as the tenant, the worker as its actor, their zone. */
export async function actingWorker(db: Db, session: PortalSession): Promise<ActingWorker> {
  const { tenant, companyName } = await workerTenant(db, session);
  const employee = await findEmployee(db, tenant.companyId, session.employee_id);
  if (!employee) throw notFound('Employee');
  return { session, tenant, companyName, employee, zone: employeeTimeZone(employee, tenant.timezone) };
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
      credential: sessionCredential(session, PORTAL_SESSION_SECONDS),
    },
    companyName: tenant.name,
  };
}
