import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import type { CheckInType } from '../../../src/db/schema.ts';
import { recordCheckIn } from '../../../src/modules/check-ins/check-ins.service.ts';
import { createCompany } from '../../../src/modules/companies/companies.service.ts';
import {
  approveCorrection,
  rejectCorrection,
  requestCorrection,
} from '../../../src/modules/corrections/corrections.service.ts';
import { createEmployee } from '../../../src/modules/employees/employees.service.ts';
import { sealedDocuments } from '../../../src/modules/month-documents/month-documents.service.ts';
import { listWorkSummaries } from '../../../src/modules/work-summaries/work-summaries.service.ts';
import { CursorCodec } from '../../../src/platform/pagination.ts';
import type { ActingTenant } from '../../../src/platform/tenant.ts';
import { FrozenClock } from '../../../src/time/clock.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * Corrections change the figures exactly as if the final active check-ins had been recorded alone (issue 15):
 * over random check-ins and random corrections (applied, rejected or left pending), through the real services and
 * PostgreSQL, in random orders of arrival, the stored days and the month figures of a worker equal those of a
 * second worker who only ever received the final active check-ins, in another order.
 */
let database: TestDatabase;
let db: Db;
let company: ActingTenant;
const clock = new FrozenClock('2026-06-01T00:00:00Z');
const codec = new CursorCodec(Buffer.alloc(32, 9));
const worker = (employeeId: string): ActingTenant => ({
  ...company,
  actor: { type: 'employee', id: employeeId },
});

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const created = await createCompany(
    { db, clock },
    { name: 'Corrections properties', seats: 1000, tracking_start_date: '2026-01-01' },
  );
  company = {
    companyId: created.id,
    accountId: created.id,
    timezone: 'Europe/Madrid',
    actor: { type: 'system', id: 'property-test' },
  };
});
afterAll(() => database.drop());

const MARCH = Temporal.Instant.from('2026-03-02T00:00:00Z');
const TYPES: CheckInType[] = ['in', 'out', 'break_start', 'break_end'];
const event = fc.record({
  type: fc.constantFrom(...TYPES),
  // Within two weeks of March 2026, in whole minutes.
  minute: fc.integer({ min: 0, max: 14 * 24 * 60 - 1 }),
});
const correction = fc.record({
  // Which active check-ins it voids (bit i: the i-th active one, in time order), what it adds, how it ends.
  voidMask: fc.integer({ min: 0, max: 2 ** 12 - 1 }),
  add: fc.array(event, { maxLength: 3 }),
  outcome: fc.constantFrom('applied', 'applied', 'rejected', 'pending', 'company-only'),
  workerAsks: fc.boolean(),
});
const instantOf = (minute: number) => MARCH.add({ minutes: minute }).toString();
const keyOf = (item: { type: string; minute: number }) => `${item.type}@${item.minute}`;

let counter = 0;
async function hire() {
  counter += 1;
  return (
    await createEmployee({ db, clock }, company, {
      first_name: 'P',
      last_name: `${counter}`,
      email: `corr${counter}@example.com`,
      hire_date: '2026-02-01',
    })
  ).id;
}

async function active(employeeId: string) {
  return await db
    .selectFrom('check_ins')
    .select(['id', 'type', 'timestamp'])
    .where('company_id', '=', company.companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
}

async function figures(employeeId: string) {
  const days = await db
    .selectFrom('workdays')
    .selectAll()
    .where('company_id', '=', company.companyId)
    .where('employee_id', '=', employeeId)
    .orderBy('date')
    .execute();
  const month = await listWorkSummaries({ db, clock, cursors: codec }, company, {
    period: 'month',
    from: '2026-03-01',
    to: '2026-03-31',
    employee_id: employeeId,
  });
  return {
    days: days.map(({ consolidated_at: _at, employee_id: _id, ...rest }) => rest),
    month: month.data.map(({ employee_id: _id, ...rest }) => rest),
  };
}

it('gives the figures of the final active check-ins alone, in any order of arrival', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(event, { maxLength: 16, selector: keyOf }),
      fc.array(correction, { maxLength: 4 }),
      fc.integer({ min: 1, max: 1000 }),
      async (events, corrections, seed) => {
        const corrected = await hire();
        const shuffle = <T extends { minute: number }>(items: T[]) =>
          [...items].sort((a, b) => ((a.minute * seed) % 101) - ((b.minute * seed) % 101));
        for (const item of shuffle(events)) {
          await recordCheckIn({ db, clock }, company, {
            employee_id: corrected,
            type: item.type,
            timestamp: instantOf(item.minute),
          });
        }
        for (const step of corrections) {
          const current = await active(corrected);
          const voided = current.filter((_, index) => index < 12 && (step.voidMask >> index) & 1);
          const kept = new Set(
            current
              .filter((row) => !voided.includes(row))
              .map((row) => `${row.type}@${(row.timestamp.getTime() - MARCH.epochMilliseconds) / 60_000}`),
          );
          const additions = step.add.filter((item) => {
            const fresh = !kept.has(keyOf(item));
            kept.add(keyOf(item));
            return fresh;
          });
          if (voided.length === 0 && additions.length === 0) continue;
          const requester = step.workerAsks ? worker(corrected) : company;
          const request = await requestCorrection({ db, clock }, requester, {
            employee_id: corrected,
            reason: 'property',
            void: voided.map((row) => row.id),
            add: additions.map((item) => ({ type: item.type, timestamp: instantOf(item.minute) })),
          });
          if (step.outcome === 'rejected') {
            await rejectCorrection({ db, clock }, company, request.id, 'no');
          } else if (step.outcome === 'company-only') {
            if (!step.workerAsks)
              await approveCorrection(
                {
                  db,
                  clock,
                  publicUrl: 'http://localhost',
                  sealedDocuments: sealedDocuments({ clock, cursors: codec }),
                },
                company,
                request.id,
              );
          } else if (step.outcome === 'applied') {
            if (!step.workerAsks)
              await approveCorrection(
                {
                  db,
                  clock,
                  publicUrl: 'http://localhost',
                  sealedDocuments: sealedDocuments({ clock, cursors: codec }),
                },
                worker(corrected),
                request.id,
              );
            const applied = await approveCorrection(
              {
                db,
                clock,
                publicUrl: 'http://localhost',
                sealedDocuments: sealedDocuments({ clock, cursors: codec }),
              },
              company,
              request.id,
            );
            expect(applied.status).toBe('applied');
          }
        }

        // A second worker receives only the final active check-ins, in another order.
        const final = await active(corrected);
        const direct = await hire();
        const reversed = [...final].reverse();
        for (const row of seed % 2 === 0 ? reversed : final) {
          await recordCheckIn({ db, clock }, company, {
            employee_id: direct,
            type: row.type,
            timestamp: row.timestamp.toISOString(),
          });
        }
        expect(await figures(direct)).toEqual(await figures(corrected));
      },
    ),
    { numRuns: 20 },
  );
}, 120_000);
