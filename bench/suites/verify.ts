import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import { CHECK_IN_FACT_COLUMNS } from '../../src/modules/registry/registry.repo.ts';
import {
  canonicalJson,
  chainEmployee,
  chainHash,
  checkInFactContent,
  GENESIS,
} from '../../src/modules/registry/registry.service.ts';
import { verifyRegistry } from '../../src/modules/verification/verification.service.ts';
import { consolidate } from '../../src/modules/workdays/consolidation.ts';
import { FakeClock } from '../../src/time/clock.ts';
import { type BenchCluster, dataSetReady, markDataSet, openBenchDatabase, timed } from '../lib/cluster.ts';
import { generateCheckIns, generateEmployees } from '../lib/generate.ts';

/**
 * Issue 34: verification of a company with 100,000 chain entries answers in seconds, on one connection, with
 * memory flat between 10,000 and 100,000 entries. Two companies are generated once (kept for later runs): 10
 * and 100 employees with 1,000 check-ins each, every check-in chained as the service chains it, and every
 * employee's days consolidated. The control, in the same run, is the chain pass alone over the same entries
 * (read in the same keyset batches and hashed), which is the least a verification can do.
 */
const PER_EMPLOYEE = 1_000;
const SIZES = [10, 100] as const;
/** At 100,000 entries (chains, facts both ways, closings, seals and every stored day recomputed). */
const TARGET_SECONDS = 60;
/**
 * The heap a verification holds (sampled after full collections) may grow this much from 10,000 to 100,000
 * entries: flat, not with the entries.
 */
const TARGET_HEAP_GROWTH = 1.5;

export async function verifySuite(cluster: BenchCluster): Promise<string[]> {
  const { db } = await openBenchDatabase(cluster, 'bench_verify');
  const clock = new FakeClock();
  const failures: string[] = [];
  try {
    const companies = await dataSet(db, clock);
    const results: Array<{ entries: number; seconds: number; control: number; heap: number }> = [];
    for (const [index, companyId] of companies.entries()) {
      const control = await chainPassSeconds(db, companyId);
      const heapBefore = settledHeap();
      let peak = heapBefore;
      // What the verification holds, not its garbage: the heap right after a full collection, every 250 ms.
      const sampler = setInterval(() => {
        peak = Math.max(peak, settledHeap());
      }, 250);
      const started = performance.now();
      const verification = await verifyRegistry({ db, clock }, companyId);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (!verification.ok) failures.push(`verify: the generated company ${index} has problems`);
      const heap = (peak - heapBefore) / 1024 / 1024;
      results.push({ entries: verification.entries, seconds, control, heap });
      console.log(
        `  ${verification.entries} entries: verify ${seconds.toFixed(1)} s (${Math.round(verification.entries / seconds)} entries/s, with a collection every 250 ms), chain pass alone ${control.toFixed(2)} s, heap held ${heap.toFixed(1)} MB`,
      );
    }
    const [small, large] = results;
    if (small && large) {
      const growth = Math.max(large.heap, 1) / Math.max(small.heap, 1);
      console.log(
        `  verify at ${large.entries}: ${large.seconds.toFixed(1)} s (target ≤ ${TARGET_SECONDS}); ${(large.seconds / large.control).toFixed(1)}× the chain pass; heap growth ${growth.toFixed(2)}× from ${small.entries} (target ≤ ${TARGET_HEAP_GROWTH})`,
      );
      if (large.seconds > TARGET_SECONDS)
        failures.push(`verify: ${large.seconds.toFixed(1)} s at 100,000 entries`);
      if (growth > TARGET_HEAP_GROWTH)
        failures.push(`verify: heap grew ${growth.toFixed(2)}× with the entries`);
    }
  } finally {
    await db.destroy();
  }
  return failures;
}

function settledHeap(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  return process.memoryUsage().heapUsed;
}

type EntryRow = { employee_id: string; seq: string; content: string; previous_hash: Buffer };

/** The control: every entry of the company read in keyset batches of 2,000 and its hash recomputed. */
async function chainPassSeconds(db: Db, companyId: string): Promise<number> {
  const started = performance.now();
  let after: { employee: string; seq: number } | null = null;
  for (;;) {
    const position: RawBuilder<unknown> =
      after === null ? sql`` : sql`and (employee_id, seq) > (${after.employee}::uuid, ${after.seq}::bigint)`;
    const batch: EntryRow[] = (
      await sql<EntryRow>`
      select employee_id, seq, content, previous_hash from registry_entries
      where company_id = ${companyId}::uuid ${position}
      order by company_id, employee_id, seq limit 2000`.execute(db)
    ).rows;
    if (batch.length === 0) break;
    for (const row of batch) chainHash(row.previous_hash, row.content);
    const last = batch[batch.length - 1] as EntryRow;
    after = { employee: last.employee_id, seq: Number(last.seq) };
  }
  return (performance.now() - started) / 1000;
}

async function dataSet(db: Db, clock: FakeClock): Promise<string[]> {
  const marker = `verify:${SIZES.join('+')}x${PER_EMPLOYEE}`;
  if (!(await dataSetReady(db, marker))) {
    console.log(
      `generating companies of ${SIZES.map((size) => size * PER_EMPLOYEE).join(' and ')} chain entries`,
    );
    await sql`truncate companies cascade`.execute(db);
    for (const size of SIZES) {
      const company = await createCompany(
        { db, clock },
        { name: `Verify ${size}`, timezone: 'Europe/Madrid', tracking_start_date: '2024-01-01' },
      );
      await timed(`company of ${size} employees`, async () => {
        await generateEmployees(db, company.id, size, new Date('2024-12-31T00:00:00Z'));
        await generateCheckIns(
          db,
          company.id,
          { first: 1, last: size },
          PER_EMPLOYEE,
          '2025-01-06T08:00:00Z',
        );
        await chainAll(db, company.id);
      });
    }
    await sql`vacuum analyze`.execute(db);
    await markDataSet(db, marker);
  }
  const rows = await db
    .selectFrom('companies')
    .select(['id', 'name'])
    .where('sandbox_of', 'is', null)
    .execute();
  return SIZES.map((size) => rows.find((row) => row.name === `Verify ${size}`)?.id as string);
}

/** Chains every generated employee and check-in as the service does, and consolidates their days. */
async function chainAll(db: Db, companyId: string): Promise<void> {
  const employees = await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .execute();
  for (const employee of employees) {
    await db.transaction().execute(async (tx) => {
      await chainEmployee(tx, companyId, employee.id, new Date('2024-12-31T00:00:00Z'));
      const head = await tx
        .selectFrom('registry_entries')
        .select(['seq', 'hash'])
        .where('company_id', '=', companyId)
        .where('employee_id', '=', employee.id)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const checkIns = await tx
        .selectFrom('check_ins')
        .select(CHECK_IN_FACT_COLUMNS)
        .where('company_id', '=', companyId)
        .where('employee_id', '=', employee.id)
        .orderBy('recorded_at')
        .orderBy('id')
        .execute();
      let previous = head.hash ?? GENESIS;
      let seq = Number(head.seq);
      const entries = checkIns.map((row) => {
        const content = canonicalJson({ kind: 'check_in', ...checkInFactContent(row) });
        const hash = chainHash(previous, content);
        seq += 1;
        const entry = {
          company_id: companyId,
          employee_id: employee.id,
          seq,
          kind: 'check_in',
          subject_id: row.id,
          content,
          recorded_at: row.recorded_at,
          previous_hash: previous,
          hash,
        };
        previous = hash;
        return entry;
      });
      for (let index = 0; index < entries.length; index += 1_000) {
        await tx
          .insertInto('registry_entries')
          .values(entries.slice(index, index + 1_000))
          .execute();
      }
      await consolidate(
        tx,
        companyId,
        'Europe/Madrid',
        employee.id,
        { from: '2025-01-01', to: '2026-06-30' },
        new Date(),
      );
    });
  }
}
