import type { Db } from '../db/database.ts';
import { issueApiKey } from '../modules/api-keys/api-keys.service.ts';
import { createCompany } from '../modules/companies/companies.service.ts';
import { SCOPES } from '../platform/scopes.ts';
import type { Clock } from '../time/clock.ts';

export type DemoSeed = { companyId: string; liveKey: string; testKey: string };

/** The first start on an empty embedded database creates a demo company and two all-scope keys. */
export async function seedDemo(db: Db, clock: Clock): Promise<DemoSeed> {
  const company = await createCompany(db, clock, { name: 'Demo company' });
  const live = await issueApiKey(db, clock, company.id, {
    mode: 'live',
    scopes: [...SCOPES],
    name: 'Demo live key',
  });
  const test = await issueApiKey(db, clock, company.id, {
    mode: 'test',
    scopes: [...SCOPES],
    name: 'Demo test key',
  });
  return { companyId: company.id, liveKey: live.secret, testKey: test.secret };
}
