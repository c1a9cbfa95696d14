import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Static } from 'typebox';
import { lockCompanyRow } from '../../db/companies.ts';
import type { Executor } from '../../db/database.ts';
import { violatedConstraint } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companyLanguage, type Language } from '../../platform/language.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { authenticatePasskey, passkeyRefused } from '../passkeys/passkeys.service.ts';
import { unitExists } from '../units/units.service.ts';
import {
  countActiveAdmins,
  disableAdminRow,
  findActiveAdmin,
  findAdminByEmailKey,
  insertAdmin,
  selectAdmins,
  updateAdminLanguage,
  updateAdminRole,
} from './admins.repo.ts';
import type { Admin, CreateAdminBody, LoginBody, UpdateAdminBody } from './admins.schemas.ts';
import { dummyHash, hashPassword, verifyPassword } from './password.ts';
import type { Role } from './roles.ts';
import type { createSession } from './sessions.ts';

export type AdminView = Static<typeof Admin>;

const emailKey = (email: string) => email.trim().toLowerCase();

/** A company administrator (a dashboard user) of a live company. Emails are unique in the deployment. */
export async function createAdmin(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  scope: CompanyScope,
  input: Static<typeof CreateAdminBody>,
  defaultRole: Role,
): Promise<AdminView> {
  const { db, clock } = deps;
  const { tenant } = await loadAccount(db, scope.companyId);
  if (tenant.sandbox_of !== null) {
    throw invalid({ company: 'is a sandbox; administrators belong to the live company' });
  }
  const role = input.role ?? defaultRole;
  const unitIds = await checkedUnits(db, scope.companyId, role, input.unit_ids ?? []);
  const now = toDate(clock.now());
  const row = {
    company_id: tenant.id,
    id: newId(),
    email: input.email.trim(),
    email_key: emailKey(input.email),
    password_hash: await hashPassword(input.password),
    role,
    unit_ids: unitIds,
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
  return {
    id: row.id,
    company_id: row.company_id,
    email: row.email,
    role,
    unit_ids: unitIds,
    created_at: formatInstant(now),
  };
}

/** A team lead leads at least one unit of the company; the other roles lead none (422 otherwise). */
async function checkedUnits(
  db: Executor,
  companyId: string,
  role: Role,
  unitIds: string[],
): Promise<string[]> {
  if (role !== 'team_lead') {
    if (unitIds.length > 0) throw invalid({ unit_ids: 'only a team lead has units' });
    return [];
  }
  if (unitIds.length === 0) throw invalid({ unit_ids: 'a team lead needs at least one unit' });
  for (const id of unitIds) {
    if (!(await unitExists(db, companyId, id))) {
      throw invalid({ unit_ids: 'includes a unit that is not of this company' });
    }
  }
  return unitIds;
}

/**
 * An owner changes another administrator's role and units (docs/security.md "Roles"). Their open sessions follow
 * at once (the role is read at every request). Not one's own (422), and never the last active owner (409).
 */
export async function updateAdmin(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  scope: CompanyScope,
  id: string,
  input: Static<typeof UpdateAdminBody>,
  actingAdminId: string,
): Promise<AdminView> {
  if (id === actingAdminId) throw invalid({ id: 'is you: another owner must change your role' });
  const unitIds = await checkedUnits(deps.db, scope.companyId, input.role, input.unit_ids ?? []);
  const now = toDate(deps.clock.now());
  return await deps.db.transaction().execute(async (tx) => {
    await lockCompanyRow(tx, scope.companyId);
    const row = await updateAdminRole(tx, scope.companyId, id, input.role, unitIds, now);
    if (!row) throw notFound('Administrator');
    if ((await countActiveAdmins(tx, scope.companyId, 'owner')) === 0) {
      throw new ApiError('conflict', 'The company would have no active owner left.');
    }
    return adminView(row);
  });
}

const adminView = (row: Awaited<ReturnType<typeof selectAdmins>>[number]): AdminView => ({
  ...row,
  created_at: formatInstant(row.created_at),
  disabled_at: row.disabled_at ? formatInstant(row.disabled_at) : null,
});

/** The administrator whose email and password match, or null. Unknown emails cost one scrypt too. */
export async function authenticateAdmin(
  deps: Pick<AppDeps, 'db'>,
  credentials: Static<typeof LoginBody>,
): Promise<Parameters<typeof createSession>[2] | null> {
  const { db } = deps;
  const { email, password } = credentials;
  const admin = await findAdminByEmailKey(db, emailKey(email));
  const matches = await verifyPassword(password, admin?.password_hash ?? (await dummyHash()));
  // A disabled administrator gets the same answer as a wrong password (nothing tells the account apart).
  return admin && matches && admin.disabled_at === null
    ? {
        id: admin.id,
        company_id: admin.company_id,
        email: admin.email,
        language: admin.language,
        role: admin.role,
        unit_ids: admin.unit_ids,
      }
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
  return { data: rows.map(adminView) };
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
    if ((await countActiveAdmins(tx, scope.companyId, 'owner')) === 0) {
      throw new ApiError('conflict', 'The company would have no active owner left.');
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
