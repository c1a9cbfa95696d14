import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Static } from 'typebox';
import { lockCompanyRow } from '../../db/companies.ts';
import { violatedConstraint } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companyLanguage, type Language } from '../../platform/language.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { authenticatePasskey, passkeyRefused } from '../passkeys/passkeys.service.ts';
import {
  countActiveAdmins,
  disableAdminRow,
  findActiveAdmin,
  findAdminByEmailKey,
  insertAdmin,
  selectAdmins,
  updateAdminLanguage,
} from './admins.repo.ts';
import type { Admin, CreateAdminBody, LoginBody } from './admins.schemas.ts';
import { dummyHash, hashPassword, verifyPassword } from './password.ts';

export type AdminView = Static<typeof Admin>;

const emailKey = (email: string) => email.trim().toLowerCase();

/** A company administrator (a dashboard user) of a live company. Emails are unique in the deployment. */
export async function createAdmin(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  scope: CompanyScope,
  input: Static<typeof CreateAdminBody>,
): Promise<AdminView> {
  const { db, clock } = deps;
  const { tenant } = await loadAccount(db, scope.companyId);
  if (tenant.sandbox_of !== null) {
    throw invalid({ company: 'is a sandbox; administrators belong to the live company' });
  }
  const now = toDate(clock.now());
  const row = {
    company_id: tenant.id,
    id: newId(),
    email: input.email.trim(),
    email_key: emailKey(input.email),
    password_hash: await hashPassword(input.password),
    created_at: now,
    updated_at: now,
  };
  try {
    await insertAdmin(db, row);
  } catch (error) {
    if (violatedConstraint(error) === 'company_admins_email_key') {
      throw new ApiError('conflict', 'An administrator with this email already exists.');
    }
    throw error;
  }
  return { id: row.id, company_id: row.company_id, email: row.email, created_at: formatInstant(now) };
}

/** The administrator whose email and password match, or null. Unknown emails cost one scrypt too. */
export async function authenticateAdmin(
  deps: Pick<AppDeps, 'db'>,
  credentials: Static<typeof LoginBody>,
): Promise<{ id: string; company_id: string; email: string; language: 'es' | 'en' | null } | null> {
  const { db } = deps;
  const { email, password } = credentials;
  const admin = await findAdminByEmailKey(db, emailKey(email));
  const matches = await verifyPassword(password, admin?.password_hash ?? (await dummyHash()));
  // A disabled administrator gets the same answer as a wrong password (nothing tells the account apart).
  return admin && matches && admin.disabled_at === null
    ? { id: admin.id, company_id: admin.company_id, email: admin.email, language: admin.language }
    : null;
}

/**
 * The administrator a passkey sign-in names (not throttled like passwords: a passkey cannot be guessed, and a
 * flood of wrong passwords must not lock its owner out; issue 35). A disabled administrator is refused.
 */
export async function authenticateAdminWithPasskey(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  response: AuthenticationResponseJSON,
) {
  const { companyId, ownerId, passkeyId } = await authenticatePasskey(deps, 'dashboard', response);
  const admin = await findActiveAdmin(deps.db, companyId, ownerId);
  if (!admin) throw passkeyRefused();
  return { admin, passkeyId };
}

/** A company's administrators (the dashboard's Settings): email and since when, never a password hash. */
export async function listAdmins(
  deps: Pick<AppDeps, 'db'>,
  scope: CompanyScope,
): Promise<{ data: AdminView[] }> {
  const rows = await selectAdmins(deps.db, scope.companyId);
  return {
    data: rows.map((row) => ({
      ...row,
      created_at: formatInstant(row.created_at),
      disabled_at: row.disabled_at ? formatInstant(row.disabled_at) : null,
    })),
  };
}

/**
 * Disables another administrator of the company (docs/dashboard.md): they can no longer log in and their sessions
 * end; the row stays, so the registry still names them. Not oneself (422), not the last active one (409).
 */
export async function disableAdmin(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  scope: CompanyScope,
  id: string,
  actingAdminId: string,
): Promise<void> {
  if (id === actingAdminId) throw invalid({ id: 'is you: another administrator must disable your account' });
  const now = toDate(deps.clock.now());
  await deps.db.transaction().execute(async (tx) => {
    // Serializes disabling within the company, so two administrators cannot disable each other at once.
    await lockCompanyRow(tx, scope.companyId);
    if (!(await disableAdminRow(tx, scope.companyId, id, now))) throw notFound('Administrator');
    if ((await countActiveAdmins(tx, scope.companyId)) === 0) {
      throw new ApiError('conflict', 'The company would have no active administrator left.');
    }
  });
}

/**
 * The language the dashboard speaks to an administrator: the one they chose, else Spanish for a company whose
 * time zone is in Spain and English for any other.
 */
export function dashboardLanguage(chosen: Language | null, companyTimezone: string): Language {
  return chosen ?? companyLanguage(companyTimezone);
}

/** An administrator's choice of language for the dashboard (null: back to the company's default). */
export async function setAdminLanguage(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  admin: { company_id: string; admin_id: string },
  language: Language | null,
): Promise<void> {
  await updateAdminLanguage(deps.db, admin.company_id, admin.admin_id, language, toDate(deps.clock.now()));
}
