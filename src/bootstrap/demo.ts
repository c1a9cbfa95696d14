import type { Db } from '../db/database.ts';
import { createAdmin } from '../modules/admins/admins.service.ts';
import { issueApiKey } from '../modules/api-keys/api-keys.service.ts';
import { createCompany } from '../modules/companies/companies.service.ts';
import { SCOPES } from '../platform/scopes.ts';
import { randomBase62 } from '../platform/secrets.ts';
import type { Clock } from '../time/clock.ts';

export type DemoSeed = {
  companyId: string;
  liveKey: string;
  testKey: string;
  login: { email: string; password: string };
};

export const DEMO_ADMIN_EMAIL = 'admin@demo.jornada.test';

/**
 * The first start on an empty embedded database creates a demo company, two all-scope keys and a dashboard
 * login with a random password (printed once).
 */
export async function seedDemo(db: Db, clock: Clock): Promise<DemoSeed> {
  const deps = { db, clock };
  const company = await createCompany(deps, { name: 'Demo company' });
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
  await createAdmin(deps, { companyId: company.id }, { email: DEMO_ADMIN_EMAIL, password });
  return {
    companyId: company.id,
    liveKey: live.secret,
    testKey: test.secret,
    login: { email: DEMO_ADMIN_EMAIL, password },
  };
}
