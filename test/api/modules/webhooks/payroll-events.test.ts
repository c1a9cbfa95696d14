import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { approveCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import { localInstant, MADRID } from '../../../helpers/local-time.ts';
import { hire } from '../../../helpers/resources.ts';
import { company, ctx, deliverDue, receiver, subscribe, useWebhookWorld } from './world.ts';

/**
 * Issue 41, what a payroll integration listens to: `registry_month.closed` when a month's figures are final, and
 * `check_in_correction.applied` naming the dates and months whose figures the correction changed, so that the
 * integration pulls exactly those again. Both delivered, signed, and verified with standardwebhooks.
 */
useWebhookWorld();

const ZONE = MADRID;
const at = (date: string, time: string) => localInstant(date, time);

async function punch(employeeId: string, type: string, timestamp: string) {
  const response = await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
  expect(response.statusCode, response.body).toBe(201);
}

/** Every delivered event of a type, verified with the endpoint's secret as a receiver does. */
async function delivered(secret: string, type: string) {
  await deliverDue();
  return receiver.requests
    .map((request) => new Webhook(secret).verify(request.body, request.headers) as Record<string, unknown>)
    .filter((event) => event.type === type);
}

describe('events for payroll (issue 41)', () => {
  it('tells a closed month with its seal and workers, as the registry answers them', async () => {
    const endpoint = await subscribe(company, ['registry_month.closed']);
    const first = await hire(company.live, { hire_date: '2026-09-01' });
    await hire(company.live, { hire_date: '2026-10-20' });
    // Hired after the month: not one of its workers.
    await hire(company.live, { hire_date: '2026-11-02' });
    await punch(first.id, 'in', at('2026-10-05', '09:00'));
    await punch(first.id, 'out', at('2026-10-05', '17:00'));
    const closed = await company.live.post('/v1/registry/months/2026-10/close');
    expect(closed.statusCode, closed.body).toBe(200);
    const [event, ...more] = await delivered(endpoint.secret, 'registry_month.closed');
    expect(more).toEqual([]);
    expect(event?.company_id).toBe(company.id);
    expect(event?.data).toEqual({
      month: '2026-10',
      seal: closed.json().seal,
      workers: 2,
      closed_at: closed.json().closed_at,
    });
    const listed = (await company.live.get('/v1/registry/months')).json().data;
    const data = event?.data as { seal: string } | undefined;
    expect(listed.find((month: { month: string }) => month.month === '2026-10')?.seal).toBe(data?.seal);
  });

  it('names the dates and months a correction changed: a break after midnight reaches a closed month', async () => {
    const endpoint = await subscribe(company, ['check_in_correction.applied']);
    const worker = await hire(company.live, { hire_date: '2026-09-01' });
    // A night shift from the last evening of October into November, its break not recorded.
    await punch(worker.id, 'in', at('2026-10-31', '22:00'));
    await punch(worker.id, 'out', at('2026-11-01', '06:00'));
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    const requested = await company.live.post('/v1/check-in-corrections', {
      employee_id: worker.id,
      reason: 'The break at 01:00 was not recorded',
      add: [
        { type: 'break_start', timestamp: at('2026-11-01', '01:00') },
        { type: 'break_end', timestamp: at('2026-11-01', '01:30') },
      ],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const correction = requested.json();
    await approveCorrection(
      ctx.deps,
      {
        companyId: company.id,
        accountId: company.id,
        timezone: ZONE,
        actor: { type: 'employee', id: worker.id },
      },
      correction.id,
    );
    const approved = await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('applied');
    const [event] = await delivered(endpoint.secret, 'check_in_correction.applied');
    // The break's own date (1 November), and the day its shift began, whose figures it changed (31 October,
    // in the closed month): payroll pulls both months again.
    expect(event?.data).toEqual({
      correction_id: correction.id,
      employee_id: worker.id,
      status: 'applied',
      affected_dates: ['2026-10-31', '2026-11-01'],
      affected_months: ['2026-10', '2026-11'],
    });
  });
});
