import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkInScenarios, explainScenarios } from '../../../../bench/lib/check-in-listings.ts';
import { generateCheckIns, generateEmployees } from '../../../../bench/lib/generate.ts';
import { createDb } from '../../../../src/db/database.ts';
import { ensureInstanceSecret } from '../../../../src/db/instance-secret.ts';
import { createCompany } from '../../../../src/modules/companies/companies.service.ts';
import { CursorCodec, cursorKey } from '../../../../src/platform/pagination.ts';
import { FrozenClock } from '../../../../src/time/clock.ts';
import { createTestDatabase, type TestDatabase } from '../../../helpers/database.ts';

/**
 * The listing plans at a smaller scale than the bench (100,000 check-ins in the company under test, beside a
 * second company's): every page, at any depth, is read from an index in the listing's order, with no sequential
 * scan and no sort. `npm run bench` repeats this on 10 million check-ins.
 */
let database: TestDatabase;
let codec: CursorCodec;
let companyId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  codec = new CursorCodec(cursorKey(await ensureInstanceSecret(database.db)));
  const clock = new FrozenClock('2026-01-01T00:00:00Z');
  for (const [index, employees] of [2_000, 1_000].entries()) {
    const company = await createCompany({ db: database.db, clock }, { name: `Scale ${index}` });
    await generateEmployees(database.db, company.id, employees, new Date('2025-01-01T00:00:00Z'));
    await generateCheckIns(
      database.db,
      company.id,
      { first: 1, last: employees },
      50,
      '2025-01-06T08:00:00Z',
    );
    if (index === 0) companyId = company.id;
  }
  await sql`analyze`.execute(database.db);
}, 120_000);
afterAll(() => database.drop());

it('answers every check-in listing page from an index, at any depth', async () => {
  const scenarios = await checkInScenarios(database.db, codec, companyId);
  const results = await explainScenarios(
    (log) => createDb(database.url, { max: 2, log }),
    codec,
    companyId,
    scenarios,
  );
  for (const result of results) {
    if (process.env.SHOW_PLANS)
      console.log(result.name, result.plan.rowsVisited, result.plan.nodes.join(' > '));
    expect(result.problems, `${result.name}: ${result.plan.nodes.join(' > ')}`).toEqual([]);
    expect(result.rows, result.name).toBeGreaterThan(0);
  }
  expect(results.map((result) => result.name)).toContain('no filter, page at 99%');
});
