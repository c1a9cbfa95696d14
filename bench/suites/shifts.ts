import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import { consolidate } from '../../src/modules/workdays/consolidation.ts';
import { FakeClock } from '../../src/time/clock.ts';
import {
  type BenchCluster,
  dataSetReady,
  markDataSet,
  openBenchDatabase,
  percentile,
  timed,
} from '../lib/cluster.ts';
import { generateEmployees, generateWorkingYear } from '../lib/generate.ts';
import { pageThrough, startBenchApi } from '../lib/http.ts';

/**
 * Issue 38: planning a month for 2,000 employees (every weekday of June 2025, 08:00–16:30 with a 30-minute
 * break: 42,000 shifts) through `POST /v1/shifts/bulk` in requests of 5,000, published, with each employee's days
 * recomputed; and the month summaries of those employees with published shifts against the same summaries
 * without (the control, in the same run): target within 1.2×. Each run starts without shifts.
 */
const EMPLOYEES = Number(process.env.BENCH_SHIFT_EMPLOYEES ?? 2_000);
const ROUNDS = 5;
const BATCH = 5_000;
const TARGET_RATIO = 1.2;
const MARKER = `shifts:v1:${EMPLOYEES}`;

function consolidateAll(db: Db, companyId: string, ids: string[]) {
  return (async () => {
    for (const id of ids) {
      await db
        .transaction()
        .execute((tx) =>
          consolidate(
            tx,
            companyId,
            'Europe/Madrid',
            id,
            { from: '2025-05-26', to: '2025-07-06' },
            new Date(),
          ),
        );
    }
  })();
}

export async function shiftsSuite(cluster: BenchCluster): Promise<string[]> {
  const { db } = await openBenchDatabase(cluster, 'bench_shifts');
  const clock = new FakeClock();
  const failures: string[] = [];
  if (!(await dataSetReady(db, MARKER))) {
    console.log(`generating ${EMPLOYEES} employees with five weeks of check-ins (kept for later runs)`);
    await sql`truncate companies cascade`.execute(db);
    const company = await createCompany({ db, clock }, { name: 'Bench', tracking_start_date: '2025-01-01' });
    await generateEmployees(db, company.id, EMPLOYEES, new Date('2025-01-01T00:00:00Z'));
    for (let first = 1; first <= EMPLOYEES; first += 500) {
      await generateWorkingYear(
        db,
        company.id,
        { first, last: Math.min(first + 499, EMPLOYEES) },
        '2025-06-02',
        5,
      );
    }
    await markDataSet(db, MARKER);
  }
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', 'Bench')
    .where('sandbox_of', 'is', null)
    .executeTakeFirstOrThrow();
  const ids = (
    await db.selectFrom('employees').select('id').where('company_id', '=', company.id).orderBy('id').execute()
  ).map((row) => row.id);
  // Each run starts without shifts: the control is the month as the weekly schedule plans it.
  await sql`delete from shifts where company_id = ${company.id}`.execute(db);
  await timed(`consolidation of ${ids.length} employees without shifts`, () =>
    consolidateAll(db, company.id, ids),
  );
  await sql`vacuum analyze`.execute(db);

  // The planning happens before the month: the fake clock stands on 20 May 2025.
  const real = clock.now().subtract({ milliseconds: clock.offsetMilliseconds });
  clock.setOffset(Temporal.Instant.from('2025-05-20T08:00:00Z').epochMilliseconds - real.epochMilliseconds);
  const api = await startBenchApi(db, clock, company.id, ['org:fichajes:read', 'org:turnos:write']);
  try {
    const pageMonth = () =>
      pageThrough(api, '/v1/work-summaries', { period: 'month', from: '2025-06-01', to: '2025-06-30' });
    const median = async () => {
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) runs.push(await pageMonth());
      return {
        ms: percentile(
          runs.map((run) => run.ms),
          50,
        ),
        rows: runs[0]?.rows ?? 0,
      };
    };
    await pageMonth(); // warm-up
    const without = await median();

    const weekdays: string[] = [];
    for (let day = Temporal.PlainDate.from('2025-06-01'); day.month === 6; day = day.add({ days: 1 })) {
      if (day.dayOfWeek <= 5) weekdays.push(day.toString());
    }
    const shifts = ids.flatMap((employee_id) =>
      weekdays.map((date) => ({
        employee_id,
        date,
        start: '08:00',
        end: '16:30',
        break_minutes: 30,
        status: 'published',
      })),
    );
    const batches: number[] = [];
    const started = performance.now();
    for (let index = 0; index < shifts.length; index += BATCH) {
      const batchStarted = performance.now();
      const response = await api.post('/v1/shifts/bulk', { shifts: shifts.slice(index, index + BATCH) });
      if (response.status !== 200)
        throw new Error(`bulk: HTTP ${response.status} ${JSON.stringify(response.body)}`);
      batches.push(performance.now() - batchStarted);
    }
    const planning = (performance.now() - started) / 1000;
    await sql`vacuum analyze`.execute(db);
    await pageMonth(); // warm-up
    const withShifts = await median();
    const ratio = withShifts.ms / without.ms;
    console.log(
      `  planning June 2025: ${shifts.length} published shifts for ${ids.length} employees in ${batches.length} requests of up to ${BATCH}: ${planning.toFixed(1)} s (${Math.round(shifts.length / planning)} shifts/s; a request: median ${(percentile(batches, 50) / 1000).toFixed(1)} s, slowest ${(Math.max(...batches) / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  month summaries of June, ${without.rows} rows, median of ${ROUNDS}: without shifts ${without.ms.toFixed(0)} ms (control), with published shifts ${withShifts.ms.toFixed(0)} ms: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)`,
    );
    if (ratio > TARGET_RATIO)
      failures.push(`shifts: month summaries with shifts at ${ratio.toFixed(2)}× without`);
  } finally {
    await api.close();
  }
  return failures;
}
