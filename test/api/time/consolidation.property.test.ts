import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import { recordCheckIn } from '../../../src/modules/check-ins/check-ins.service.ts';
import { createCompany } from '../../../src/modules/companies/companies.service.ts';
import { createEmployee } from '../../../src/modules/employees/employees.service.ts';
import { listWorkSummaries } from '../../../src/modules/work-summaries/work-summaries.service.ts';
import { consolidate } from '../../../src/modules/workdays/consolidation.ts';
import { CursorCodec } from '../../../src/platform/pagination.ts';
import type { ActingTenant } from '../../../src/platform/tenant.ts';
import { FrozenClock } from '../../../src/time/clock.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { ADDITIVE_SUMMARY_FIELDS } from '../../helpers/resources.ts';

/**
 * Properties of the stored table over random check-in sequences, through the real services and PostgreSQL:
 * day rows sum to month rows, consolidating again changes nothing, and the insertion order does not matter.
 */
let database: TestDatabase;
let db: Db;
let tenant: ActingTenant;
const clock = new FrozenClock('2026-06-01T00:00:00Z');
const codec = new CursorCodec(Buffer.alloc(32, 7));

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const company = await createCompany(
    { db, clock },
    { name: 'Properties', seats: 1000, tracking_start_date: '2026-01-01' },
  );
  tenant = {
    companyId: company.id,
    accountId: company.id,
    timezone: 'Europe/Madrid',
    actor: { type: 'system', id: 'property-test' },
  };
});
afterAll(() => database.drop());

const MARCH = Temporal.Instant.from('2026-03-01T00:00:00Z');
const sequence = fc.uniqueArray(
  fc.record({
    type: fc.constantFrom('in', 'out', 'break_start', 'break_end' as const),
    // Within March 2026 (which contains the spring DST change), in whole minutes.
    minute: fc.integer({ min: 0, max: 31 * 24 * 60 - 1 }),
  }),
  { maxLength: 30, selector: (event) => `${event.type}@${event.minute}` },
);

let counter = 0;
async function employeeWith(
  events: Array<{ type: 'in' | 'out' | 'break_start' | 'break_end'; minute: number }>,
) {
  counter += 1;
  const employee = await createEmployee({ db, clock }, tenant, {
    first_name: 'P',
    last_name: `${counter}`,
    email: `p${counter}@example.com`,
    hire_date: '2026-02-01',
  });
  for (const event of events) {
    await recordCheckIn({ db, clock }, tenant, {
      employee_id: employee.id,
      type: event.type,
      timestamp: MARCH.add({ minutes: event.minute }).toString(),
    });
  }
  return employee.id;
}

async function stored(employeeId: string) {
  return await db
    .selectFrom('workdays')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('employee_id', '=', employeeId)
    .orderBy('date')
    .execute()
    .then((rows) => rows.map(({ consolidated_at: _at, employee_id: _id, ...figures }) => figures));
}

it('sums day rows to month rows, is idempotent, and does not depend on insertion order', async () => {
  await fc.assert(
    fc.asyncProperty(sequence, fc.integer({ min: 1, max: 1000 }), async (events, seed) => {
      const first = await employeeWith(events);
      // Another employee gets the same events in another order.
      const shuffled = [...events].sort((a, b) => ((a.minute * seed) % 97) - ((b.minute * seed) % 97));
      const second = await employeeWith(shuffled);
      const once = await stored(first);
      expect(await stored(second)).toEqual(once);

      await db.transaction().execute(async (tx) => {
        await consolidate(
          tx,
          tenant.companyId,
          tenant.timezone,
          first,
          { from: '2026-02-01', to: '2027-12-31' },
          new Date(),
        );
      });
      expect(await stored(first)).toEqual(once);

      const query = { from: '2026-03-01', to: '2026-03-31', employee_id: first, limit: 100 };
      const days = await listWorkSummaries({ db, clock, cursors: codec }, tenant, {
        ...query,
        period: 'day',
      });
      // June: March is read from its monthly rollup. 2 April: March is too recent and is aggregated from its days.
      for (const reader of [clock, new FrozenClock('2026-04-02T00:00:00Z')]) {
        const [month] = (
          await listWorkSummaries({ db, clock: reader, cursors: codec }, tenant, {
            ...query,
            period: 'month',
          })
        ).data;
        for (const field of ADDITIVE_SUMMARY_FIELDS) {
          expect(
            days.data.reduce((sum, row) => sum + row[field], 0),
            field,
          ).toBe(month?.[field]);
        }
        expect(days.data.at(-1)?.banked_hours_balance_minutes).toBe(month?.banked_hours_balance_minutes);
      }
      for (const row of days.data) expect(row.night_minutes).toBeLessThanOrEqual(row.worked_minutes);
    }),
    { numRuns: 25 },
  );
}, 120_000);
