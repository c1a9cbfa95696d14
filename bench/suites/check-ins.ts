import { sql } from 'kysely';
import { createDb } from '../../src/db/database.ts';
import { ensureInstanceSecret } from '../../src/db/instance-secret.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import { CursorCodec, cursorKey } from '../../src/platform/pagination.ts';
import { FakeClock } from '../../src/time/clock.ts';
import { checkInScenarios, explainScenarios } from '../lib/check-in-listings.ts';
import {
  type BenchCluster,
  dataSetReady,
  markDataSet,
  openBenchDatabase,
  percentile,
  timed,
} from '../lib/cluster.ts';
import { generateCheckIns, generateEmployees } from '../lib/generate.ts';
import { startBenchApi } from '../lib/http.ts';

const EMPLOYEES = Number(process.env.BENCH_EMPLOYEES ?? 100_000);
const PER_EMPLOYEE = Number(process.env.BENCH_CHECKINS_PER_EMPLOYEE ?? 100);
const BATCH = 10_000;
const REQUESTS_PER_SCENARIO = 30;

/**
 * Issue 3's scale requirement: 100,000 employees and 10 million check-ins in one company. Every page of
 * GET /v1/check-ins, at any depth, with or without employee_id or updated_since, must be answered from an index
 * (no sequential scan, no sort). Prints the plans, then times the same pages over real HTTP.
 */
export async function checkInsSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, url } = await openBenchDatabase(cluster, 'bench_check_ins');
  const marker = `check-ins:${EMPLOYEES}x${PER_EMPLOYEE}`;
  const clock = new FakeClock();
  try {
    if (!(await dataSetReady(db, marker))) {
      console.log(
        `generating ${EMPLOYEES} employees and ${EMPLOYEES * PER_EMPLOYEE} check-ins (kept for later runs)`,
      );
      await sql`truncate companies cascade`.execute(db);
      const company = await createCompany(
        { db, clock },
        { name: 'Bench', tracking_start_date: '2024-01-01' },
      );
      await createCompany({ db, clock }, { name: 'Neighbour' });
      await timed('employees', () =>
        generateEmployees(db, company.id, EMPLOYEES, new Date('2025-01-01T00:00:00Z')),
      );
      await timed('check-ins', async () => {
        for (let first = 1; first <= EMPLOYEES; first += BATCH) {
          const last = Math.min(EMPLOYEES, first + BATCH - 1);
          await generateCheckIns(db, company.id, { first, last }, PER_EMPLOYEE, '2025-01-06T08:00:00Z');
          process.stdout.write(`\r  ${((last / EMPLOYEES) * 100).toFixed(0)}% `);
        }
        process.stdout.write('\n');
      });
      await timed('analyze', () => sql`vacuum analyze`.execute(db).then(() => undefined));
      await markDataSet(db, marker);
    }
    const company = await db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Bench')
      .where('sandbox_of', 'is', null)
      .executeTakeFirstOrThrow();
    const counts = await sql<{ check_ins: number; employees: number }>`
      select (select count(*) from check_ins where company_id = ${company.id}) as check_ins,
             (select count(*) from employees where company_id = ${company.id}) as employees`.execute(db);
    console.log(`data: ${JSON.stringify(counts.rows[0])}`);

    const codec = new CursorCodec(cursorKey(await ensureInstanceSecret(db)));
    const scenarios = await checkInScenarios(db, codec, company.id);
    const results = await explainScenarios(
      (log) => createDb(url, { max: 2, log }),
      codec,
      company.id,
      scenarios,
    );
    const failures: string[] = [];
    console.log('\nEXPLAIN (ANALYZE, BUFFERS) of the statement the service sends, limit=100:');
    console.log('| scenario | plan | rows visited | buffers | execution |');
    console.log('|---|---|---:|---:|---:|');
    for (const result of results) {
      console.log(
        `| ${result.name} | ${result.plan.nodes.join(' > ')} | ${result.plan.rowsVisited} | ${result.plan.sharedBlocks} | ${result.plan.executionMs.toFixed(2)} ms |`,
      );
      for (const problem of result.problems) failures.push(`${result.name}: ${problem}`);
    }

    // The same pages over real HTTP, through authentication, rate limiting and serialization.
    const api = await startBenchApi(db, clock, company.id, ['org:fichajes:read']);
    console.log(`\nGET /v1/check-ins over HTTP, ${REQUESTS_PER_SCENARIO} requests per scenario, limit=100:`);
    console.log('| scenario | p50 | p95 |');
    console.log('|---|---:|---:|');
    try {
      for (const scenario of scenarios) {
        const query = Object.fromEntries(
          Object.entries(scenario.query).map(([name, value]) => [name, String(value)]),
        );
        const latencies: number[] = [];
        for (let index = 0; index < REQUESTS_PER_SCENARIO; index++) {
          const started = performance.now();
          const response = await api.get('/v1/check-ins', query);
          latencies.push(performance.now() - started);
          if (response.status !== 200) failures.push(`${scenario.name}: HTTP ${response.status}`);
        }
        console.log(
          `| ${scenario.name} | ${percentile(latencies, 50).toFixed(1)} ms | ${percentile(latencies, 95).toFixed(1)} ms |`,
        );
      }
    } finally {
      await api.close();
    }
    return failures;
  } finally {
    await db.destroy();
  }
}
