import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { recordCheckIn } from '../../src/modules/check-ins/check-ins.service.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import { consolidate, datesAround } from '../../src/modules/workdays/consolidation.ts';
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
import { pageThrough as pageAll, startBenchApi } from '../lib/http.ts';

const EMPLOYEES = Number(process.env.BENCH_SUMMARY_EMPLOYEES ?? 2_000);
const WEEKS = 52;
const ROUNDS = 5;
/** Issue 4's target: paging a month of summaries costs at most twice paging the same number of employees. */
const TARGET_RATIO = 2;

/** Consolidates one employee's dates in their own transaction, as the services do. */
function consolidateOne(db: Db, companyId: string, employeeId: string, range: { from: string; to: string }) {
  return db
    .transaction()
    .execute((tx) => consolidate(tx, companyId, 'Europe/Madrid', employeeId, range, new Date()));
}

/**
 * The data set of issue 4's bench, generated on the first run and kept: 2,000 employees with a year of check-ins
 * (about 2 million rows), consolidated into workdays. The reports bench reads it too.
 */
export async function openWorkSummariesData(cluster: BenchCluster): Promise<{ db: Db; companyId: string }> {
  const { db } = await openBenchDatabase(cluster, 'bench_work_summaries');
  // v3: a v2 data set may hold the late check-ins of a run that stopped at its clean-up (fixed in issue 38).
  const marker = `work-summaries:v3:${EMPLOYEES}x${WEEKS}`;
  const clock = new FakeClock();
  if (!(await dataSetReady(db, marker))) {
    console.log(`generating ${EMPLOYEES} employees with ${WEEKS} weeks of check-ins (kept for later runs)`);
    await sql`truncate companies cascade`.execute(db);
    const company = await createCompany({ db, clock }, { name: 'Bench', tracking_start_date: '2024-01-01' });
    await generateEmployees(db, company.id, EMPLOYEES, new Date('2025-01-01T00:00:00Z'));
    await timed('check-ins', async () => {
      for (let first = 1; first <= EMPLOYEES; first += 500) {
        await generateWorkingYear(db, company.id, { first, last: first + 499 }, '2025-01-06', WEEKS);
      }
    });
    const employees = await db
      .selectFrom('employees')
      .select('id')
      .where('company_id', '=', company.id)
      .execute();
    await timed('consolidation of every employee (hire date to end of next year)', async () => {
      for (const employee of employees) {
        await consolidateOne(db, company.id, employee.id, { from: '2025-01-01', to: '2027-12-31' });
      }
    });
    await sql`vacuum analyze`.execute(db);
    await markDataSet(db, marker);
  }
  const company = await db
    .selectFrom('companies')
    .select(['id'])
    .where('name', '=', 'Bench')
    .where('sandbox_of', 'is', null)
    .executeTakeFirstOrThrow();
  return { db, companyId: company.id };
}

/**
 * Issue 4's bench: 2,000 employees with a year of check-ins (about 2 million rows), consolidated into workdays.
 * Times paging period=month for one month and period=day for a month over real HTTP against paging the same
 * employees, and the cost of an inserted (late) check-in with its re-consolidation.
 */
export async function workSummariesSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, companyId } = await openWorkSummariesData(cluster);
  const company = { id: companyId };
  const clock = new FakeClock();
  const failures: string[] = [];
  try {
    const counts = await sql<{ check_ins: number; workdays: number }>`
      select (select count(*) from check_ins where company_id = ${company.id}) as check_ins,
             (select count(*) from workdays where company_id = ${company.id}) as workdays`.execute(db);
    console.log(`data: ${EMPLOYEES} employees, ${JSON.stringify(counts.rows[0])}`);

    const api = await startBenchApi(db, clock, company.id, ['org:empleados:read', 'org:fichajes:read']);
    const pageThrough = (path: string, query: Record<string, string>) => pageAll(api, path, query);
    const median = async (work: () => Promise<{ ms: number; rows: number; pages: number }>) => {
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) runs.push(await work());
      const ms = percentile(
        runs.map((run) => run.ms),
        50,
      );
      return { ...runs[0], ms } as { ms: number; rows: number; pages: number };
    };
    try {
      await pageThrough('/v1/employees', {}); // warm-up
      const employees = await median(() => pageThrough('/v1/employees', {}));
      const month = await median(() =>
        pageThrough('/v1/work-summaries', { period: 'month', from: '2025-06-01', to: '2025-06-30' }),
      );
      const days = await median(() =>
        pageThrough('/v1/work-summaries', { period: 'day', from: '2025-06-01', to: '2025-06-30' }),
      );
      const ratio = month.ms / employees.ms;
      console.log(`\nPaging over HTTP, limit=100, median of ${ROUNDS}:`);
      console.log('| listing | rows | pages | total | per page |');
      console.log('|---|---:|---:|---:|---:|');
      for (const [name, run] of [
        ['GET /v1/employees', employees],
        ['GET /v1/work-summaries period=month, June 2025', month],
        ['GET /v1/work-summaries period=day, June 2025', days],
      ] as const) {
        console.log(
          `| ${name} | ${run.rows} | ${run.pages} | ${run.ms.toFixed(0)} ms | ${(run.ms / run.pages).toFixed(1)} ms |`,
        );
      }
      console.log(`month summaries / employees: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)`);
      if (ratio > TARGET_RATIO) failures.push(`month summaries page at ${ratio.toFixed(2)}× employee paging`);
    } finally {
      await api.close();
    }

    // Late check-ins into closed past days: the insert with its re-consolidation, through the service.
    const sample = await db
      .selectFrom('employees')
      .select('id')
      .where('company_id', '=', company.id)
      .orderBy('id')
      .limit(200)
      .execute();
    const tenant = {
      companyId: company.id,
      accountId: company.id,
      timezone: 'Europe/Madrid',
      actor: { type: 'system' as const, id: 'bench' },
    };
    const inserts: number[] = [];
    const consolidations: number[] = [];
    const added: Array<{ id: string; employeeId: string; at: Temporal.Instant }> = [];
    for (const [index, employee] of sample.entries()) {
      const at = Temporal.Instant.from('2025-09-01T18:00:00Z').add({ hours: 24 * (index % 60) });
      let started = performance.now();
      const checkIn = await recordCheckIn({ db, clock }, tenant, {
        employee_id: employee.id,
        type: 'break_start',
        timestamp: at.toString(),
      });
      added.push({ id: checkIn.id, employeeId: employee.id, at });
      inserts.push(performance.now() - started);
      started = performance.now();
      await consolidateOne(db, company.id, employee.id, datesAround(at, 'Europe/Madrid'));
      consolidations.push(performance.now() - started);
    }
    // Leave the data set as it was for the next run. Check-ins and chain entries are append-only for everyone
    // (issue 34's triggers): the bench restores its own data set as an operator would, with triggers off for the
    // transaction. The added check-ins' entries are the tails of their employees' chains, so the chains stay whole.
    await db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await tx
        .deleteFrom('registry_entries')
        .where('company_id', '=', company.id)
        .where(
          'subject_id',
          'in',
          added.map((row) => row.id),
        )
        .execute();
      await tx
        .deleteFrom('check_ins')
        .where('company_id', '=', company.id)
        .where(
          'id',
          'in',
          added.map((row) => row.id),
        )
        .execute();
      for (const row of added) {
        await consolidate(
          tx,
          company.id,
          'Europe/Madrid',
          row.employeeId,
          datesAround(row.at, 'Europe/Madrid'),
          new Date(),
        );
      }
    });
    console.log(
      `\nA late check-in (${sample.length} inserts into past days, each re-consolidating three dates):`,
    );
    console.log('| step | p50 | p95 |');
    console.log('|---|---:|---:|');
    console.log(
      `| POST /v1/check-ins service call, insert + re-consolidation + event | ${percentile(inserts, 50).toFixed(2)} ms | ${percentile(inserts, 95).toFixed(2)} ms |`,
    );
    console.log(
      `| the re-consolidation alone | ${percentile(consolidations, 50).toFixed(2)} ms | ${percentile(consolidations, 95).toFixed(2)} ms |`,
    );
    return failures;
  } finally {
    await db.destroy();
  }
}
