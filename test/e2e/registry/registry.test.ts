import { spawnSync } from 'node:child_process';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/database.ts';
import { migrate } from '../../../src/db/migrator.ts';
import { allowAnySyncStamp } from '../../../src/db/sync-stamp.ts';
import { verifyRegistry } from '../../../src/modules/verification/verification.service.ts';
import { FrozenClock } from '../../../src/time/clock.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../helpers/dashboard.ts';
import { createEmptyDatabase } from '../../helpers/database.ts';
import { hire } from '../../helpers/resources.ts';

/** The registry of record, first part (issue 15): who recorded what and when, and chains that show tampering. */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

const ago = (hours: number) => ctx.clock.now().subtract({ hours }).toString({ smallestUnit: 'second' });

async function chainOf(employeeId: string) {
  return await ctx.db
    .selectFrom('registry_entries')
    .select(['seq', 'kind', 'subject_id', 'content', 'previous_hash', 'hash'])
    .where('company_id', '=', company.id)
    .where('employee_id', '=', employeeId)
    .orderBy('seq')
    .execute();
}

describe('who recorded a check-in, and when', () => {
  it('records the key, the moment, the source and the work mode, and marks a record 24 hours late as late', async () => {
    ctx.clock.advance(61);
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    const before = ctx.clock.now().epochMilliseconds;
    const onTime = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ago(2),
      work_mode: 'remote',
    });
    expect(onTime.statusCode, onTime.body).toBe(201);
    expect(onTime.json()).toMatchObject({
      source: 'api',
      work_mode: 'remote',
      status: 'active',
      late: false,
      recorded_by: { type: 'api_key', id: company.liveKeyId },
    });
    // Stored at the service's now, to the millisecond.
    const recordedAt = Date.parse(onTime.json().recorded_at);
    expect(recordedAt).toBeGreaterThanOrEqual(before);
    expect(recordedAt).toBeLessThanOrEqual(ctx.clock.now().epochMilliseconds);
    expect(onTime.json().recorded_at).toMatch(/\.\d{3}Z$/);
    const late = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'out',
      timestamp: ago(25),
    });
    expect(late.json()).toMatchObject({ late: true, work_mode: null });
    // The threshold is the company's: at 12 hours, a record 10 hours late is not late, one 13 hours late is.
    const patched = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 12 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().late_record_hours).toBe(12);
    const within = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ago(10),
    });
    expect(within.json().late).toBe(false);
    const beyond = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'out',
      timestamp: ago(13),
    });
    expect(beyond.json().late).toBe(true);
    expect(
      (await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 0 })).statusCode,
    ).toBe(422);
    // Never above the operator's threshold (JORNADA_LATE_RECORD_HOURS, 24 by default): issue 34's late-threshold game.
    expect(
      (await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 48 })).statusCode,
    ).toBe(422);
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 24 });
  });

  it('names the administrator for a check-in recorded in the dashboard', async () => {
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    const admin = await createAdmin(ctx, company.id);
    const session = await dashboardSession(ctx, admin.email, admin.password);
    const recorded = await session.call('POST', '/dashboard/api/live/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ago(1),
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({
      source: 'dashboard',
      recorded_by: { type: 'admin', id: admin.id },
    });
  });
});

describe('the per-employee hash chain', () => {
  it('appends every check-in to its employee’s chain, each entry hashing the previous one', async () => {
    ctx.clock.advance(61);
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    const ids: string[] = [];
    for (const [type, hours] of [
      ['in', 9],
      ['out', 5],
      ['in', 4],
    ] as const) {
      ids.push(
        (
          await company.live.post('/v1/check-ins', { employee_id: employee.id, type, timestamp: ago(hours) })
        ).json().id,
      );
    }
    const chain = await chainOf(employee.id);
    // The hire's state comes first (issue 34: the chain holds the employee's identity and contract too).
    expect(chain.map((entry) => [Number(entry.seq), entry.kind, entry.subject_id])).toEqual([
      [1, 'employee', employee.id],
      [2, 'check_in', ids[0]],
      [3, 'check_in', ids[1]],
      [4, 'check_in', ids[2]],
    ]);
    expect(chain[0]?.previous_hash.equals(Buffer.alloc(32))).toBe(true);
    expect(chain[1]?.previous_hash.equals(chain[0]?.hash as Buffer)).toBe(true);
    expect(chain[2]?.previous_hash.equals(chain[1]?.hash as Buffer)).toBe(true);
    expect(JSON.parse(chain[3]?.content ?? '{}')).toMatchObject({
      kind: 'check_in',
      check_in_id: ids[2],
      type: 'in',
    });
    const verified = await ctx.admin.get(`/admin/v1/registry/verify?company_id=${company.id}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ ok: true });
    expect(verified.json().entries).toBeGreaterThanOrEqual(3);
  });

  it('is refused any UPDATE or DELETE by the database, and a check-in any change but one void', async () => {
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    const checkIn = (
      await company.live.post('/v1/check-ins', { employee_id: employee.id, type: 'in', timestamp: ago(3) })
    ).json();
    const refused = async (statement: Promise<unknown>, code = '42501') => {
      const error = await statement.then(
        () => null,
        (failure: { code?: string }) => failure,
      );
      expect(error?.code).toBe(code);
    };
    await refused(
      sql`update registry_entries set content = '{}' where subject_id = ${checkIn.id}`.execute(ctx.db),
    );
    await refused(sql`delete from registry_entries where subject_id = ${checkIn.id}`.execute(ctx.db));
    await refused(
      sql`update check_ins set timestamp = timestamp - interval '1 hour' where id = ${checkIn.id}`.execute(
        ctx.db,
      ),
    );
    await refused(sql`delete from check_ins where id = ${checkIn.id}`.execute(ctx.db));
    // A void names the correction that voids it (a check constraint), and happens once: never back to active.
    // (As written here, outside the service, in a transaction that may stamp any instant: 0030_sync_stamps.sql.)
    const unstamped = (statement: RawBuilder<unknown>) =>
      ctx.db.transaction().execute(async (tx) => {
        await allowAnySyncStamp(tx);
        return await statement.execute(tx);
      });
    await refused(
      unstamped(sql`update check_ins set status = 'voided', updated_at = now() where id = ${checkIn.id}`),
      '23514',
    );
    const correction = '0191a8e0-0000-7000-8000-000000000001';
    await unstamped(sql`update check_ins set status = 'voided', voided_by_correction_id = ${correction},
                        updated_at = now() where id = ${checkIn.id}`);
    await refused(
      sql`update check_ins set status = 'active', voided_by_correction_id = null where id = ${checkIn.id}`.execute(
        ctx.db,
      ),
    );
  });

  it('names the check-in whose timestamp was changed behind the application’s back (triggers disabled)', async () => {
    const other = await ctx.createCompany({ name: 'Tampered' });
    const employee = await hire(other.live, { hire_date: '2026-01-01' });
    for (const [type, hours] of [
      ['in', 8],
      ['out', 7],
      ['in', 6],
    ] as const) {
      await other.live.post('/v1/check-ins', { employee_id: employee.id, type, timestamp: ago(hours) });
    }
    // Three check-ins, the employee's state and the company's (issue 34).
    expect(await verifyRegistry(ctx.deps, other.id)).toMatchObject({ ok: true, entries: 5 });
    const [, second] = await ctx.db
      .selectFrom('check_ins')
      .select(['id', 'timestamp'])
      .where('company_id', '=', other.id)
      .orderBy('timestamp')
      .execute();
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_ins disable trigger check_ins_immutable`.execute(tx);
      await sql`update check_ins set timestamp = timestamp + interval '2 hours' where id = ${second?.id}`.execute(
        tx,
      );
      await sql`alter table check_ins enable trigger check_ins_immutable`.execute(tx);
    });
    const verified = await ctx.admin.get(`/admin/v1/registry/verify?company_id=${other.id}`);
    expect(verified.json()).toMatchObject({ ok: false, broken: { employee_id: employee.id, entry: 3 } });
    expect(verified.json().broken.expected).toContain(`${second?.timestamp.toISOString().slice(0, 19)}Z`);
    expect(verified.json().broken.found).not.toContain(`${second?.timestamp.toISOString().slice(0, 19)}Z`);
    // The same from the command line, on the database directly.
    const cli = spawnSync(process.execPath, ['src/cli.js', 'registry', 'verify', '--company', other.id], {
      env: { ...process.env, DATABASE_URL: ctx.database.url, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(1);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      ok: false,
      broken: { employee_id: employee.id, entry: 3 },
    });
    // A chain entry rewritten with its hash left as it was is named too.
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_ins disable trigger check_ins_immutable`.execute(tx);
      await sql`update check_ins set timestamp = ${second?.timestamp} where id = ${second?.id}`.execute(tx);
      await sql`alter table check_ins enable trigger check_ins_immutable`.execute(tx);
      await sql`alter table registry_entries disable trigger registry_entries_append_only`.execute(tx);
      await sql`update registry_entries set content = replace(content, '"in"', '"out"') where company_id = ${other.id} and seq = 4`.execute(
        tx,
      );
      await sql`alter table registry_entries enable trigger registry_entries_append_only`.execute(tx);
    });
    expect(await verifyRegistry(ctx.deps, other.id)).toMatchObject({ ok: false, broken: { entry: 4 } });
  });
});

describe('keeping the records (at least 4 years, art. 34.9 ET)', () => {
  it('refuses to delete a worker or a live company that holds records, even in one SQL statement', async () => {
    const kept = await ctx.createCompany({ name: 'Kept' });
    const employee = await hire(kept.live, { hire_date: '2026-01-01' });
    await kept.live.post('/v1/check-ins', { employee_id: employee.id, type: 'in', timestamp: ago(3) });
    // Refused by a foreign key that does not cascade (23503), or by the append-only triggers that a cascade
    // reaches (42501): either way nothing is deleted.
    const refused = async (statement: Promise<unknown>) => {
      const error = await statement.then(
        () => null,
        (failure: { code?: string }) => failure,
      );
      expect(['42501', '23503']).toContain(error?.code);
    };
    await refused(sql`delete from employees where id = ${employee.id}`.execute(ctx.db));
    await refused(sql`delete from companies where id = ${kept.id}`.execute(ctx.db));
    // Terminating keeps everything.
    await kept.live.post(`/v1/employees/${employee.id}/terminate`, {});
    const entries = await ctx.db
      .selectFrom('registry_entries')
      .select('kind')
      .where('company_id', '=', kept.id)
      .where('employee_id', '=', employee.id)
      .orderBy('seq')
      .execute();
    // The hire's state, the check-in, and the termination's state (issue 34).
    expect(entries.map((entry) => entry.kind)).toEqual(['employee', 'check_in', 'employee']);
    expect((await kept.live.get(`/v1/check-ins?employee_id=${employee.id}`)).json().data).toHaveLength(1);
  });
});

describe('check-ins recorded before the registry', () => {
  it('enter their employees’ chains when the migration runs, and verify', async () => {
    const database = await createEmptyDatabase();
    const db = createDb(database.url, { max: 2 });
    try {
      await migrate(db, { through: '0008_hardening' });
      const companyId = '0192f3a4-0000-7000-8000-000000000001';
      const employeeId = '0192f3a4-0000-7000-8000-000000000002';
      const at = new Date('2026-10-01T08:00:00.123Z');
      await sql`insert into companies (id, name, timezone, seats, max_active_keys, company_status, subscription_status,
                                       addon_enabled, vacation_carry_over_max_days, vacation_carry_over_expiry,
                                       active_employee_count, created_at, updated_at)
                values (${companyId}, 'Old', 'Europe/Madrid', 5, 10, 'active', 'active', true, 0, '03-31', 1, ${at}, ${at})`.execute(
        db,
      );
      await sql`insert into employees (company_id, id, first_name, last_name, email, status, hire_date,
                                       work_schedule, vacation_days_per_year, created_at, updated_at)
                values (${companyId}, ${employeeId}, 'Ana', 'Old', 'ana@example.com', 'active', '2026-01-01',
                        '{480,480,480,480,480,0,0}', 22, ${at}, ${at})`.execute(db);
      for (const [index, type] of ['in', 'out'].entries()) {
        const stamp = new Date(at.getTime() + index * 3_600_000);
        await sql`insert into check_ins (company_id, id, employee_id, type, timestamp, source, created_at, updated_at)
                  values (${companyId}, ${`0192f3a4-0000-7000-8000-00000000001${index}`}, ${employeeId}, ${type},
                          ${new Date(Math.floor(stamp.getTime() / 1000) * 1000)}, 'api', ${stamp}, ${stamp})`.execute(
          db,
        );
      }
      await migrate(db);
      expect(await verifyRegistry({ db, clock: new FrozenClock('2026-11-01T00:00:00Z') }, companyId)).toEqual(
        {
          ok: true,
          // The two check-ins, then the employee's and the company's states (migration 0036).
          entries: 4,
          problems: [],
        },
      );
      const recorded = await db
        .selectFrom('check_ins')
        .select(['recorded_by_type', 'recorded_by_id'])
        .execute();
      expect(recorded).toEqual([
        { recorded_by_type: 'system', recorded_by_id: 'before-registry' },
        { recorded_by_type: 'system', recorded_by_id: 'before-registry' },
      ]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
