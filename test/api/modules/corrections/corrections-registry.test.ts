import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { approveCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import { hire } from '../../../helpers/resources.ts';
import {
  at,
  clock,
  company,
  ctx,
  doubleIn,
  other,
  useCorrectionsWorld,
  voidOf,
  workerAccepts,
} from './world.ts';

/** Corrections and the registry: closed months, the chain, and verification. */
useCorrectionsWorld();

describe('corrections and closed months', () => {
  it('is the one change a closed month accepts', async () => {
    const employee = await hire(other.live, { hire_date: '2025-01-01' });
    const [, second] = await clock(
      employee.id,
      [
        ['in', at('2026-09-07', '09:00')],
        ['in', at('2026-09-07', '09:01')],
        ['out', at('2026-09-07', '17:00')],
      ],
      other.live,
    );
    expect((await other.live.post('/v1/registry/months/2026-09/close')).statusCode).toBe(200);
    const direct = await other.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'break_start',
      timestamp: at('2026-09-07', '13:00'),
    });
    expect(direct.statusCode).toBe(409);
    const correction = (
      await other.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in, found after the close',
        void: [second],
      })
    ).json();
    await approveCorrection(
      ctx.deps,
      {
        companyId: other.id,
        accountId: other.id,
        timezone: 'Europe/Madrid',
        actor: { type: 'employee', id: employee.id },
      },
      correction.id,
    );
    const applied = await other.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(applied.json().status).toBe('applied');
    const summary = (
      await other.live.get('/v1/work-summaries', {
        query: { period: 'day', employee_id: employee.id, from: '2026-09-07', to: '2026-09-07' },
      })
    ).json().data[0];
    expect(summary).toMatchObject({ worked_minutes: 8 * 60, incomplete_days: 0 });
  });
});

describe('the chain records every step, and verification finds what was changed behind its back', () => {
  it('writes request, approvals, void, added check-ins and the application in order', async () => {
    const { employee, second } = await doubleIn();
    const correction = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in',
        void: [second],
        add: [{ type: 'break_start', timestamp: at('2026-10-05', '12:00') }],
      })
    ).json();
    await workerAccepts(employee.id, correction.id);
    await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    const kinds = await ctx.db
      .selectFrom('registry_entries')
      .select(['kind'])
      .where('company_id', '=', company.id)
      .where('employee_id', '=', employee.id)
      .orderBy('seq')
      .execute();
    expect(kinds.map((row) => row.kind)).toEqual([
      'employee',
      'check_in',
      'check_in',
      'check_in',
      'correction_requested',
      'correction_accepted',
      'correction_approved',
      'check_in_void',
      'check_in',
      'correction_applied',
    ]);
  });

  it('names a correction whose reason was rewritten, and a check-in voided without one (triggers disabled)', async () => {
    const tampered = await ctx.createCompany({ name: 'Tampered corrections' });
    const employee = await hire(tampered.live, { hire_date: '2025-01-01' });
    const [, second, third] = await clock(
      employee.id,
      [
        ['in', at('2026-10-05', '09:00')],
        ['in', at('2026-10-05', '09:02')],
        ['out', at('2026-10-05', '17:00')],
      ],
      tampered.live,
    );
    const correction = (
      await tampered.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in',
        void: [second],
      })
    ).json();
    // Three check-ins and the request, the employee's state and the company's (issue 34).
    expect(await verifyRegistry(ctx.deps, tampered.id)).toMatchObject({ ok: true, entries: 6 });
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_in_corrections disable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`update check_in_corrections set reason = 'Worker asked' where id = ${correction.id}`.execute(
        tx,
      );
      await sql`alter table check_in_corrections enable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
    });
    const rewritten = await verifyRegistry(ctx.deps, tampered.id);
    expect(rewritten).toMatchObject({ ok: false, broken: { employee_id: employee.id, entry: 5 } });
    expect(rewritten.broken?.found).toContain('Worker asked');
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_in_corrections disable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`update check_in_corrections set reason = 'Double in' where id = ${correction.id}`.execute(tx);
      await sql`alter table check_in_corrections enable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`alter table check_ins disable trigger check_ins_immutable`.execute(tx);
      await sql`update check_ins set status = 'voided', voided_by_correction_id = ${correction.id} where id = ${third}`.execute(
        tx,
      );
      await sql`alter table check_ins enable trigger check_ins_immutable`.execute(tx);
    });
    expect(await verifyRegistry(ctx.deps, tampered.id)).toMatchObject({
      ok: false,
      broken: { employee_id: employee.id, entry: 0, found: `check-in ${third} without one` },
    });
  });

  it('refuses to rewrite a correction’s request or to undo a decision', async () => {
    const { employee, second } = await doubleIn();
    const correction = await voidOf(employee.id, second);
    const refused = async (statement: Promise<unknown>) => {
      const error = await statement.then(
        () => null,
        (failure: { code?: string }) => failure,
      );
      expect(error?.code).toBe('42501');
    };
    await refused(
      sql`update check_in_corrections set reason = 'x' where id = ${correction.id}`.execute(ctx.db),
    );
    await refused(sql`delete from check_in_corrections where id = ${correction.id}`.execute(ctx.db));
    await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, { reason: 'No' });
    await refused(
      sql`update check_in_corrections set status = 'pending', rejected_at = null where id = ${correction.id}`.execute(
        ctx.db,
      ),
    );
  });
});
