import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import { makeDueDocuments } from '../../../../src/modules/month-documents/month-documents.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Issue 34's property: over random sequences of writes of every kind, with month closes between them, no closed
 * month's figures (every employee's month row, banked balance included, as GET /v1/work-summaries reports it)
 * or stored documents ever change, and no new version of a month appears, except through an applied correction. Each run is a new company; each write may be refused (a
 * 4xx), and the property says a refusal is the only way a write can meet a closed month.
 */
let ctx: TestContext;

const ZONE = 'Europe/Madrid';
const FIRST = Temporal.PlainDate.from('2026-08-01');
const MONTHS = ['2026-08', '2026-09', '2026-10'] as const;
const dateAt = (offset: number) => FIRST.add({ days: offset }).toString();

type Write =
  | {
      kind: 'check_in';
      worker: number;
      type: 'in' | 'out' | 'break_start' | 'break_end';
      day: number;
      minute: number;
    }
  | { kind: 'absence'; worker: number; day: number; length: number; type: 'vacation' | 'sick_leave' }
  | { kind: 'cancel_absence' }
  | { kind: 'holiday'; day: number }
  | { kind: 'remove_holiday' }
  | { kind: 'tracking_start'; day: number }
  | { kind: 'employee_tracking_start'; worker: number; day: number | null }
  | { kind: 'contract'; worker: number; day: number; minutes: number }
  | { kind: 'opening_balance'; worker: number; minutes: number }
  | { kind: 'timezone'; zone: string; day: number | null }
  | { kind: 'employee_timezone'; worker: number; zone: string | null; day: number | null }
  | { kind: 'documents' }
  | { kind: 'close' }
  | { kind: 'correction'; worker: number; pick: number };

const worker = fc.integer({ min: 0, max: 1 });
const day = fc.integer({ min: 0, max: 110 });
const write: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('check_in' as const),
      worker,
      type: fc.constantFrom('in' as const, 'out' as const, 'break_start' as const, 'break_end' as const),
      day,
      minute: fc.integer({ min: 0, max: 1439 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('absence' as const),
      worker,
      day,
      length: fc.integer({ min: 1, max: 3 }),
      type: fc.constantFrom('vacation' as const, 'sick_leave' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel_absence' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('holiday' as const), day }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'remove_holiday' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tracking_start' as const), day }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('employee_tracking_start' as const),
      worker,
      day: fc.option(day, { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('contract' as const),
      worker,
      day,
      minutes: fc.constantFrom(0, 240, 420, 480),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('opening_balance' as const),
      worker,
      minutes: fc.integer({ min: -600, max: 600 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('timezone' as const),
      zone: fc.constantFrom('Europe/Madrid', 'Atlantic/Canary', 'Asia/Tokyo'),
      day: fc.option(day, { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('employee_timezone' as const),
      worker,
      zone: fc.constantFrom('Atlantic/Canary', 'Asia/Tokyo', null),
      day: fc.option(day, { nil: null }),
    }),
  },
  // The worker role makes the sealed documents queued so far.
  { weight: 2, arbitrary: fc.constant({ kind: 'documents' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'close' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('correction' as const), worker, pick: fc.nat() }) },
);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/**
 * The company's stored sealed documents (id → SHA-256 of the bytes as stored now) and every worker's closed-month
 * versions: what may only grow, and only through a correction.
 */
async function sealed(company: TestCompany) {
  const documents = await sql<{ id: string; digest: string }>`
    select id, encode(sha256(content), 'hex') as digest from registry_documents where company_id = ${company.id}`.execute(
    ctx.db,
  );
  const versions = await sql<{ key: string; version: number }>`
    select employee_id || '|' || month as key, max(version) as version from registry_month_versions
    where company_id = ${company.id} group by employee_id, month`.execute(ctx.db);
  return {
    documents: new Map(documents.rows.map((row) => [row.id, row.digest])),
    versions: Object.fromEntries(versions.rows.map((row) => [row.key, row.version])),
  };
}

/** The closed months' rows of every worker, as the public API reports them. */
async function closedFigures(company: TestCompany, closed: readonly string[]) {
  const figures = new Map<string, unknown>();
  for (const month of closed) {
    const response = await company.live.get('/v1/work-summaries', {
      query: { period: 'month', from: `${month}-01`, to: `${month}-28`, limit: 100 },
    });
    expect(response.statusCode, response.body).toBe(200);
    for (const row of response.json().data as Array<{ employee_id: string }>) {
      figures.set(`${row.employee_id}|${month}`, row);
    }
  }
  return figures;
}

async function apply(
  company: TestCompany,
  workers: Array<{ id: string }>,
  state: { closed: string[]; absences: string[]; holidays: string[] },
  next: Write,
): Promise<'correction' | 'other'> {
  const of = (index: number) => (workers[index] as { id: string }).id;
  switch (next.kind) {
    case 'check_in': {
      const at = Temporal.PlainDate.from(dateAt(next.day))
        .toZonedDateTime({
          timeZone: ZONE,
          plainTime: { hour: Math.floor(next.minute / 60), minute: next.minute % 60 },
        })
        .toInstant()
        .toString();
      await company.live.post('/v1/check-ins', {
        employee_id: of(next.worker),
        type: next.type,
        timestamp: at,
      });
      return 'other';
    }
    case 'absence': {
      const requested = await company.live.post('/v1/absences', {
        employee_id: of(next.worker),
        type: next.type,
        start_date: dateAt(next.day),
        end_date: dateAt(next.day + next.length - 1),
      });
      if (requested.statusCode !== 201) return 'other';
      const approved = await company.live.post(`/v1/absences/${requested.json().id}/approve`);
      if (approved.statusCode === 200) state.absences.push(requested.json().id);
      return 'other';
    }
    case 'cancel_absence': {
      const id = state.absences.at(-1);
      if (id && (await company.live.post(`/v1/absences/${id}/cancel`)).statusCode === 200)
        state.absences.pop();
      return 'other';
    }
    case 'holiday': {
      const added = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
        date: dateAt(next.day),
        name: 'Fiesta',
      });
      if (added.statusCode === 201) state.holidays.push(added.json().id);
      return 'other';
    }
    case 'remove_holiday': {
      const id = state.holidays.at(-1);
      if (
        id &&
        (await ctx.admin.delete(`/admin/v1/companies/${company.id}/holidays/${id}`)).statusCode === 204
      ) {
        state.holidays.pop();
      }
      return 'other';
    }
    case 'tracking_start':
      await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { tracking_start_date: dateAt(next.day) });
      return 'other';
    case 'employee_tracking_start':
      await company.live.patch(`/v1/employees/${of(next.worker)}`, {
        tracking_start_date: next.day === null ? null : dateAt(next.day),
      });
      return 'other';
    case 'contract':
      await company.live.patch(`/v1/employees/${of(next.worker)}`, {
        effective_from: dateAt(next.day),
        work_schedule: {
          mon: next.minutes,
          tue: next.minutes,
          wed: next.minutes,
          thu: next.minutes,
          fri: next.minutes,
          sat: 0,
          sun: 0,
        },
      });
      return 'other';
    case 'opening_balance':
      await company.live.patch(`/v1/employees/${of(next.worker)}`, { opening_banked_minutes: next.minutes });
      return 'other';
    case 'timezone':
      await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
        timezone: next.zone,
        ...(next.day === null ? {} : { timezone_effective_from: dateAt(next.day) }),
      });
      return 'other';
    case 'employee_timezone':
      await company.live.patch(`/v1/employees/${of(next.worker)}`, {
        timezone: next.zone,
        ...(next.day === null ? {} : { effective_from: dateAt(next.day) }),
      });
      return 'other';
    case 'documents':
      while ((await makeDueDocuments(ctx.deps)) > 0);
      return 'other';
    case 'close': {
      const month = MONTHS[state.closed.length];
      if (month && (await company.live.post(`/v1/registry/months/${month}/close`)).statusCode === 200) {
        state.closed.push(month);
      }
      return 'other';
    }
    case 'correction': {
      const listed = await company.live.get('/v1/check-ins', {
        query: { employee_id: of(next.worker), limit: 100 },
      });
      const rows = listed.json().data as Array<{ id: string }>;
      const target = rows[next.pick % Math.max(rows.length, 1)];
      if (!target) return 'other';
      const requested = await company.live.post('/v1/check-in-corrections', {
        employee_id: of(next.worker),
        reason: 'Registro duplicado',
        void: [target.id],
      });
      if (requested.statusCode !== 201) return 'other';
      const id = requested.json().id as string;
      const account = { companyId: company.id, accountId: company.id, timezone: ZONE };
      await approveCorrection(ctx.deps, { ...account, actor: { type: 'employee', id: of(next.worker) } }, id);
      const approved = await company.live.post(`/v1/check-in-corrections/${id}/approve`);
      return approved.statusCode === 200 && approved.json().status === 'applied' ? 'correction' : 'other';
    }
  }
}

describe('a closed month under random writes', () => {
  it('keeps its figures unless a correction applies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 8, maxLength: 22 }), async (writes) => {
        const company = await ctx.createCompany({ timezone: ZONE, trackingStart: '2026-07-01' });
        const workers = [
          await hire(company.live, { hire_date: '2026-06-01' }),
          await hire(company.live, { hire_date: '2026-06-01' }),
        ];
        const state = { closed: [] as string[], absences: [] as string[], holidays: [] as string[] };
        let kept = await closedFigures(company, state.closed);
        let stored = await sealed(company);
        for (const next of writes) {
          const closedBefore = state.closed.length;
          const outcome = await apply(company, workers, state, next);
          const now = await closedFigures(company, state.closed);
          // A stored document never changes or goes; a new version comes only from a correction.
          const after = await sealed(company);
          for (const [id, digest] of stored.documents) expect(after.documents.get(id), id).toBe(digest);
          if (outcome !== 'correction') expect(after.versions, JSON.stringify(next)).toEqual(stored.versions);
          stored = after;
          if (outcome === 'correction' || state.closed.length !== closedBefore) {
            kept = now;
            continue;
          }
          expect(Object.fromEntries(now), JSON.stringify(next)).toEqual(Object.fromEntries(kept));
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 300_000);
});
