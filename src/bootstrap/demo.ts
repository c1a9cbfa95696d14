import type { Db } from '../db/database.ts';
import { createAdmin } from '../modules/admins/admins.service.ts';
import { issueApiKey } from '../modules/api-keys/api-keys.service.ts';
import { createCompany } from '../modules/companies/companies.service.ts';
import { SCOPES } from '../platform/scopes.ts';
import { randomBase62 } from '../platform/secrets.ts';
import type { Clock } from '../time/clock.ts';
import { localDate } from '../time/zones.ts';
import { demoStart, seedDemoMonth } from './demo-month.ts';

export type DemoSeed = {
  companyId: string;
  liveKey: string;
  testKey: string;
  login: { email: string; password: string };
};

export const DEMO_ADMIN_EMAIL = 'admin@demo.jornada.test';

/**
 * The first start on an empty embedded database creates a demo company, two all-scope keys and a dashboard
 * login with a random password (printed once), and fills the live company and its sandbox with a realistic
 * month (demo-month.ts), recording from the Monday four weeks before this week's.
 */
export async function seedDemo(db: Db, clock: Clock): Promise<DemoSeed> {
  const deps = { db, clock };
  const timezone = 'Europe/Madrid';
  const trackingStart = demoStart(localDate(clock.now(), timezone)).toString();
  const company = await createCompany(deps, {
    name: 'Demo company',
    legal_name: 'Obrador Demo, S.L.',
    tax_id: 'B12345674',
    timezone,
    tracking_start_date: trackingStart,
  });
  const live = await issueApiKey(
    deps,
    { companyId: company.id },
    {
      mode: 'live',
      scopes: [...SCOPES],
      name: 'Demo live key',
    },
  );
  const test = await issueApiKey(
    deps,
    { companyId: company.id },
    {
      mode: 'test',
      scopes: [...SCOPES],
      name: 'Demo test key',
    },
  );
  const password = randomBase62(20);
  const admin = await createAdmin(
    deps,
    { companyId: company.id },
    { email: DEMO_ADMIN_EMAIL, password },
    'owner',
  );
  const actor = { type: 'admin' as const, id: admin.id };
  // The live company and its sandbox at once (two tenants: nothing shared), so the first start waits half as long.
  await Promise.all(
    [company.id, company.sandbox_company_id].map((tenantId, index) =>
      tenantId === null
        ? undefined
        : seedDemoMonth(
            db,
            clock,
            { companyId: tenantId, accountId: company.id, timezone, actor },
            { seed: index + 1 },
          ),
    ),
  );
  return {
    companyId: company.id,
    liveKey: live.secret,
    testKey: test.secret,
    login: { email: DEMO_ADMIN_EMAIL, password },
  };
}
