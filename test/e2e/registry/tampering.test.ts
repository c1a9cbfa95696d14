import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../../src/db/database.ts';
import { recordWorkerPunches } from '../../../src/modules/check-ins/check-ins.service.ts';
import { acknowledgeMonth } from '../../../src/modules/registry-access/acknowledgements.service.ts';
import { verifyRegistry } from '../../../src/modules/verification/verification.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { localInstant, MADRID } from '../../helpers/local-time.ts';
import { hire } from '../../helpers/resources.ts';

/**
 * Tampering by an operator with superuser SQL and every trigger off (issue 34): verification names each kind,
 * all of them in one run. October 2026 is the closed month; the clock is past it, as the real one is.
 */
let ctx: TestContext;
let company: TestCompany;

const ZONE = MADRID;
const at = (date: string, time: string) => localInstant(date, time);

/** SQL as a superuser who switched every trigger (append-only guards included) off for the transaction. */
async function asSuperuser(statements: (tx: Tx) => Promise<unknown>) {
  await ctx.db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await statements(tx);
  });
}

async function workedDay(employeeId: string, date: string) {
  for (const [type, time] of [
    ['in', '09:00'],
    ['out', '17:00'],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: at(date, time),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
});
afterAll(() => ctx.close());

describe('verification after tampering', () => {
  it('names every kind of tampering, each with its employee, in one run', async () => {
    const edited = await hire(company.live, { hire_date: '2026-01-01' });
    const forged = await hire(company.live, { hire_date: '2026-01-01' });
    const truncated = await hire(company.live, { hire_date: '2026-01-01' });
    const backdated = await hire(company.live, { hire_date: '2026-01-01' });
    const acknowledged = await hire(company.live, { hire_date: '2026-01-01' });
    const sick = await hire(company.live, { hire_date: '2026-01-01' });
    const rewritten = await hire(company.live, { hire_date: '2026-01-01' });
    for (const employee of [edited, forged, truncated, backdated, acknowledged, rewritten]) {
      await workedDay(employee.id, '2026-10-05');
    }
    const leave = await company.live.post('/v1/absences', {
      employee_id: sick.id,
      type: 'sick_leave',
      start_date: '2026-10-12',
      end_date: '2026-10-14',
    });
    expect(leave.statusCode, leave.body).toBe(201);
    expect((await company.live.post(`/v1/absences/${leave.json().id}/approve`)).statusCode).toBe(200);
    const holiday = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
      date: '2026-10-09',
      name: 'Fiesta local',
    });
    expect(holiday.statusCode, holiday.body).toBe(201);
    const grant = await company.live.post('/v1/registry/access-grants', {
      kind: 'inspection',
      label: 'ITSS Madrid, expediente 28/555',
      from: '2026-10-01',
      to: '2026-10-31',
      expires_at: ctx.clock
        .now()
        .add({ hours: 24 * 30 })
        .toString({ smallestUnit: 'second' }),
    });
    expect(grant.statusCode, grant.body).toBe(201);
    const token = new URL(grant.json().url).pathname.split('/').pop() as string;
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/registry-access/${token}/api/summary` })).statusCode,
    ).toBe(200);
    await workedDay(truncated.id, '2026-11-03');
    const correction = await company.live.post('/v1/check-in-corrections', {
      employee_id: forged.id,
      reason: 'Arrived at 08:30',
      add: [{ type: 'in', timestamp: at('2026-11-02', '08:30') }],
    });
    expect(correction.statusCode, correction.body).toBe(201);
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    await acknowledgeMonth(
      ctx.deps,
      {
        companyId: company.id,
        accountId: company.id,
        timezone: ZONE,
        actor: { type: 'employee', id: acknowledged.id },
      },
      '2026-10',
    );
    const clean = await verifyRegistry(ctx.deps, company.id);
    expect(clean).toMatchObject({ ok: true, problems: [] });
    // The seal a worker keeps from the closed month (GET /v1/registry/months, printed on their documents).
    const seal = (await company.live.get('/v1/registry/months')).json().data[0].seal as string;
    expect(seal).toMatch(/^[0-9a-f]{64}$/);

    // 1. A computed figure edited: 8 hours become 9.
    await asSuperuser((tx) =>
      sql`update workdays set worked_minutes = worked_minutes + 60
          where employee_id = ${edited.id} and date = '2026-10-05'`.execute(tx),
    );
    // 2. A correction's acceptance forged for the worker.
    await asSuperuser((tx) =>
      sql`update check_in_corrections set employee_approval_at = now() where id = ${correction.json().id}`.execute(
        tx,
      ),
    );
    // 3. The last chain entry removed with its check-in (the chain stays consistent on its own).
    await asSuperuser(async (tx) => {
      const last = await sql<{ seq: string; subject_id: string }>`
        select seq, subject_id from registry_entries where employee_id = ${truncated.id} and kind = 'check_in'
        order by seq desc limit 1`.execute(tx);
      const row = last.rows[0];
      await sql`delete from registry_entries where employee_id = ${truncated.id} and seq >= ${row?.seq}`.execute(
        tx,
      );
      await sql`delete from check_ins where id = ${row?.subject_id}`.execute(tx);
    });
    // 4. The closing deleted and put back around a back-dated check-in.
    const closing = await ctx.db
      .selectFrom('registry_months')
      .selectAll()
      .where('company_id', '=', company.id)
      .executeTakeFirstOrThrow();
    await asSuperuser((tx) => sql`delete from registry_months where company_id = ${company.id}`.execute(tx));
    const slipped = await company.live.post('/v1/check-ins', {
      employee_id: backdated.id,
      type: 'in',
      timestamp: at('2026-10-20', '09:00'),
    });
    expect(slipped.statusCode, slipped.body).toBe(201);
    await ctx.db.insertInto('registry_months').values(closing).execute();
    // 5. An acknowledgement deleted.
    await asSuperuser((tx) =>
      sql`delete from registry_acknowledgements where employee_id = ${acknowledged.id}`.execute(tx),
    );

    // 6. A sick leave turned into vacation.
    await asSuperuser((tx) =>
      sql`update absences set absence_type_id = (select id from absence_types t
            where t.company_id = absences.company_id and t.key = 'vacation')
          where id = ${leave.json().id}`.execute(tx),
    );
    // 7. A holiday deleted (its day becomes a working day again).
    await asSuperuser((tx) => sql`delete from holidays where id = ${holiday.json().id}`.execute(tx));
    // 8. The inspection's access log deleted.
    await asSuperuser((tx) =>
      sql`delete from registry_accesses where grant_id = ${grant.json().id}`.execute(tx),
    );
    // 9. A whole chain rewritten consistently: a check-in moved an hour, every later hash recomputed.
    await asSuperuser(async (tx) => {
      await sql`update check_ins set timestamp = timestamp - interval '1 hour'
                where employee_id = ${rewritten.id} and type = 'in'`.execute(tx);
      const entries = await sql<{ seq: string; kind: string; content: string }>`
        select seq, kind, content from registry_entries where employee_id = ${rewritten.id} order by seq`.execute(
        tx,
      );
      let previous = Buffer.alloc(32);
      for (const entry of entries.rows) {
        let content = entry.content;
        if (entry.kind === 'check_in' && content.includes('"type":"in"')) {
          content = content.replace(
            /"timestamp":"([^"]+)"/,
            (_, text: string) =>
              `"timestamp":"${Temporal.Instant.from(text).subtract({ hours: 1 }).toString()}"`,
          );
        }
        const hash = createHash('sha256').update(previous).update(content, 'utf8').digest();
        await sql`update registry_entries set content = ${content}, previous_hash = ${previous}, hash = ${hash}
                  where employee_id = ${rewritten.id} and seq = ${entry.seq}`.execute(tx);
        previous = hash;
      }
      // The worker's day recomputed to match, so no figure gives it away.
      await sql`update workdays set worked_minutes = worked_minutes + 60
                where employee_id = ${rewritten.id} and date = '2026-10-05'`.execute(tx);
      await sql`update workday_months set worked_minutes = worked_minutes + 60
                where employee_id = ${rewritten.id} and month = '2026-10-01'`.execute(tx);
    });

    // 10. Identity printed on the documents changed behind the application's back: a worker's NAF, the centre.
    await asSuperuser((tx) =>
      sql`update employees set social_security_number = '280123456789' where id = ${backdated.id}`.execute(
        tx,
      ),
    );
    await asSuperuser((tx) =>
      sql`update companies set legal_name = 'Otra S.L.' where id = ${company.id}`.execute(tx),
    );

    const verified = await ctx.admin.get(`/admin/v1/registry/verify?company_id=${company.id}`);
    expect(verified.statusCode, verified.body).toBe(200);
    const result = verified.json() as {
      ok: boolean;
      problems: Array<{ kind: string; employee_id?: string }>;
    };
    expect(result.ok).toBe(false);
    const named = (kind: string, employeeId: string) =>
      result.problems.some((problem) => problem.kind === kind && problem.employee_id === employeeId);
    expect(named('figures_mismatch', edited.id), 'edited figures').toBe(true);
    expect(named('fact_without_entry', forged.id), 'forged acceptance').toBe(true);
    expect(named('figures_mismatch', truncated.id), 'truncated chain').toBe(true);
    expect(named('recorded_into_closed_month', backdated.id), 'closing around a back-dated check-in').toBe(
      true,
    );
    expect(named('entry_without_fact', acknowledged.id), 'deleted acknowledgement').toBe(true);
    expect(named('fact_mismatch', sick.id), 'sick leave turned into vacation').toBe(true);
    expect(named('fact_mismatch', backdated.id), "a worker's identity").toBe(true);
    const companyWide = (kind: string, text: string) =>
      result.problems.some((problem) => problem.kind === kind && JSON.stringify(problem).includes(text));
    expect(companyWide('entry_without_fact', holiday.json().id), 'deleted holiday').toBe(true);
    expect(companyWide('entry_without_fact', 'registry_access'), 'deleted access log').toBe(true);
    expect(companyWide('seal_mismatch', '2026-10'), 'a chain rewritten consistently').toBe(true);
    expect(companyWide('fact_mismatch', 'Otra S.L.'), "the company's legal name").toBe(true);
    // The command line, given the seal the worker kept, names the rewrite too.
    const cli = spawnSync(
      process.execPath,
      ['src/cli.js', 'registry', 'verify', '--company', company.id, '--seal', `2026-10=${seal}`],
      { env: { ...process.env, DATABASE_URL: ctx.database.url, LOG_LEVEL: 'silent' }, encoding: 'utf8' },
    );
    expect(cli.status, cli.stderr).toBe(1);
    const printed = JSON.parse(cli.stdout) as { problems: Array<{ kind: string; expected: string }> };
    expect(
      printed.problems.some((problem) => problem.kind === 'seal_mismatch' && problem.expected.includes(seal)),
    ).toBe(true);
  });

  it('answers for a company of 1,500 chain entries (the old verification hung past 1,000)', async () => {
    const big = await ctx.createCompany({ timezone: ZONE });
    const worker = await hire(big.live, { hire_date: '2024-01-01' });
    const rows = Array.from({ length: 1_500 }, (_, index) => ({
      type: index % 2 === 0 ? ('in' as const) : ('out' as const),
      timestamp: Temporal.Instant.from('2024-02-01T08:00:00Z')
        .add({ hours: 12 * Math.floor(index / 2) + (index % 2) * 8 })
        .toString(),
    }));
    // Recorded through the service in one write of days, each under the rules of every check-in (the API's
    // per-minute limit would slow 1,500 requests down; one write per punch took some 45 s of the suite).
    const tenant = {
      companyId: big.id,
      accountId: big.id,
      timezone: ZONE,
      actor: { type: 'api_key' as const, id: big.liveKeyId },
    };
    const now = ctx.deps.clock.now();
    await recordWorkerPunches(
      ctx.deps,
      tenant,
      worker.id,
      rows.map((row) => ({
        type: row.type,
        timestamp: Temporal.Instant.from(row.timestamp),
        recorded_at: now,
      })),
      'api',
    );
    const verified = await ctx.admin.get(`/admin/v1/registry/verify?company_id=${big.id}`);
    expect(verified.statusCode).toBe(200);
    // 1,500 check-ins, the employee's state and the company's.
    expect(verified.json()).toMatchObject({ ok: true, entries: 1_502, problems: [] });
  }, 120_000);
});

describe('the verify command', () => {
  it('never creates or starts a cluster: an empty data directory is an error, and nothing is made there', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'jornada-verify-'));
    const { DATABASE_URL: _url, ...env } = process.env;
    const cli = spawnSync(process.execPath, ['src/cli.js', 'registry', 'verify'], {
      env: { ...env, JORNADA_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('no Jornada database');
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  });
});
