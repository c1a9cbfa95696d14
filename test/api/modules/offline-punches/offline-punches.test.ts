import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { registeredPhone, sealPin, Tablet } from '../../../helpers/kiosk.ts';
import { joinPortal } from '../../../helpers/portal.ts';
import { rewriteCheckIn } from '../../../helpers/tamper.ts';

/**
 * Issue 40, punches that survive a lost connection: the portal's app and a kiosk keep each punch signed by the
 * device's key, with the device's clock and a sequence, and send the queue later. The attacks: a replayed queue,
 * a forged punch (another key, another device's id), a sequence taken out of the queue (a gap), a punch stamped
 * before its device existed, a sealed PIN moved to another punch, a wrong PIN guessed through a queue, a QR code
 * used twice, an operator with SQL changing the device's time.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: DashboardSession;
let locationId: string;

// A Wednesday in March, 10:00 in Madrid: the punches of the morning were made offline.
const NOW = '2027-03-10T09:00:00Z';

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ name: 'Obras Norte', timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, NOW);
  const owner = await createAdmin(ctx, company.id, { role: 'admin' });
  admin = await dashboardSession(ctx, owner.email, owner.password);
  locationId = (
    await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Obra Norte' })
  ).json().id;
});
afterAll(() => ctx.close());

const ago = (hours: number) =>
  Temporal.Instant.from(NOW)
    .subtract({ minutes: Math.round(hours * 60) })
    .toString();

async function worked(employeeId: string, date: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', from: date, to: date, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0]?.worked_minutes as number;
}

describe('the portal’s offline punches', () => {
  it('records a queued day as the worker’s own, made offline, and refuses the same queue sent again', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2027-01-01' });
    // The phone was registered at the worker's last login, the day before.
    pinClock(ctx.clock, ago(24));
    const phone = await registeredPhone(ctx.app, worker.send.bind(worker));
    pinClock(ctx.clock, NOW);
    // Made on the phone yesterday at 16:00 and 18:30 Madrid time; sent this morning.
    const queue = [
      await phone.queued({ type: 'in', device_time: '2027-03-09T15:00:00Z' }),
      await phone.queued({ type: 'out', device_time: '2027-03-09T17:30:00Z' }),
    ];
    const sent = await worker.send('POST', '/portal/api/check-ins/batch', {
      device_id: phone.device,
      punches: queue,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { results, gaps } = sent.json();
    expect(gaps).toEqual([]);
    expect(results.map((result: { status: string }) => result.status)).toEqual(['recorded', 'recorded']);
    expect(results[0].check_in).toMatchObject({
      employee_id: employee.id,
      type: 'in',
      timestamp: '2027-03-09T15:00:00Z',
      source: 'portal',
      recorded_offline: true,
      device_time: '2027-03-09T15:00:00Z',
      worker_confirmed: true,
      late: false,
      device_id: null,
    });
    expect(Date.parse(results[0].check_in.received_at)).toBeGreaterThanOrEqual(Date.parse(NOW));
    // The API shows it as made offline; the day counts it.
    const read = (await company.live.get(`/v1/check-ins/${results[0].check_in.id}`)).json();
    expect(read).toMatchObject({ recorded_offline: true, device_time: '2027-03-09T15:00:00Z' });
    expect(await worked(employee.id, '2027-03-09')).toBe(150);

    // The same queue again (a retry after a lost answer, or a replay): nothing twice.
    const again = await worker.send('POST', '/portal/api/check-ins/batch', {
      device_id: phone.device,
      punches: queue,
    });
    expect(again.json().results.map((result: { code: string }) => result.code)).toEqual([
      'replayed',
      'replayed',
    ]);
    expect(await worked(employee.id, '2027-03-09')).toBe(150);

    // An operator with SQL who moves the device's time is caught by verification.
    const verify = async () =>
      (await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } })).json();
    const first = await verify();
    expect(first.ok, JSON.stringify(first)).toBe(true);
    await rewriteCheckIn(ctx.db, results[0].check_in.id, { device_time: new Date('2027-03-09T14:00:00Z') });
    expect((await verify()).ok).toBe(false);
    await rewriteCheckIn(ctx.db, results[0].check_in.id, { device_time: new Date('2027-03-09T15:00:00Z') });
    expect((await verify()).ok).toBe(true);
  });

  it('orders a late queue into its days, marks it late, and shows a punch taken out of the queue as a gap', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2027-01-01' });
    pinClock(ctx.clock, ago(80));
    const phone = await registeredPhone(ctx.app, worker.send.bind(worker));
    pinClock(ctx.clock, NOW);
    // Monday 8 March, 08:00 to 14:00 Madrid, kept three days; sent out of order, and the break's end (3) lost.
    const inAt = '2027-03-08T07:00:00Z';
    const punches = [
      await phone.queued({ type: 'out', device_time: '2027-03-08T13:00:00Z' }, 4),
      await phone.queued({ type: 'in', device_time: inAt }, 1),
      await phone.queued({ type: 'break_start', device_time: '2027-03-08T10:00:00Z' }, 2),
    ];
    const sent = (
      await worker.send('POST', '/portal/api/check-ins/batch', { device_id: phone.device, punches })
    ).json();
    expect(
      sent.results.map((result: { index: number; status: string }) => [result.index, result.status]),
    ).toEqual([
      [0, 'recorded'],
      [1, 'recorded'],
      [2, 'recorded'],
    ]);
    expect(sent.results.every((result: { check_in: { late: boolean } }) => result.check_in.late)).toBe(true);
    expect(sent.gaps).toEqual([{ from: 3, to: 3 }]);
    // The break has no end: the day is counted to the break's start (3 hours), as any open break is.
    expect(await worked(employee.id, '2027-03-08')).toBe(180);
    // The missing punch arrives: the gap closes.
    const late = await phone.queued({ type: 'break_end', device_time: '2027-03-08T10:30:00Z' }, 3);
    const filled = (
      await worker.send('POST', '/portal/api/check-ins/batch', { device_id: phone.device, punches: [late] })
    ).json();
    expect(filled.gaps).toEqual([]);
    expect(await worked(employee.id, '2027-03-08')).toBe(330);
  });

  it('refuses a forged punch without spending its sequence, a punch before the device, and another worker’s device', async () => {
    const { worker } = await joinPortal(ctx, company.live, { hire_date: '2027-01-01' });
    pinClock(ctx.clock, ago(1.5));
    const phone = await registeredPhone(ctx.app, worker.send.bind(worker));
    pinClock(ctx.clock, NOW);
    const thief = await new Tablet(ctx.app).init();
    thief.device = phone.device;
    const forged = await thief.queued({ type: 'in', device_time: ago(1) }, 1);
    const early = await phone.queued({ type: 'in', device_time: ago(2) }, 2);
    const tampered = await phone.queued({ type: 'in', device_time: ago(1) }, 3);
    tampered.punch = tampered.punch.replace('"in"', '"out"');
    const sent = (
      await worker.send('POST', '/portal/api/check-ins/batch', {
        device_id: phone.device,
        punches: [forged, early, tampered, { punch: '{', signature: 'x' }],
      })
    ).json();
    expect(sent.results.map((result: { code?: string }) => result.code)).toEqual([
      'bad_signature',
      'before_device',
      'bad_signature',
      'malformed',
    ]);
    // The genuine punch 1, sent after the forgery, is recorded: the forgery took nothing.
    const genuine = await phone.queued({ type: 'in', device_time: ago(0.2) }, 1);
    const ok = (
      await worker.send('POST', '/portal/api/check-ins/batch', {
        device_id: phone.device,
        punches: [genuine],
      })
    ).json();
    expect(ok.results[0].status).toBe('recorded');

    // Another worker cannot send through this worker's device.
    const other = await joinPortal(ctx, company.live, { hire_date: '2027-01-01' });
    const foreign = await other.worker.send('POST', '/portal/api/check-ins/batch', {
      device_id: phone.device,
      punches: [await phone.queued({ type: 'out', device_time: ago(0.1) })],
    });
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().code).toBe('conflict');
    // A key that is not a public P-256 key is refused at registration.
    const bad = await worker.send('POST', '/portal/api/devices', {
      public_key: { kty: 'RSA', n: 'x', e: 'AQAB' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses only the punch that reaches a closed month, and records the rest of the queue', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2027-01-01' });
    pinClock(ctx.clock, '2027-01-20T10:00:00Z');
    const phone = await registeredPhone(ctx.app, worker.send.bind(worker));
    pinClock(ctx.clock, NOW);
    expect((await company.live.post('/v1/registry/months/2027-02/close')).statusCode).toBe(200);
    const punches = [
      await phone.queued({ type: 'in', device_time: '2027-02-26T08:00:00Z' }),
      await phone.queued({ type: 'in', device_time: '2027-03-09T15:00:00Z' }),
      await phone.queued({ type: 'out', device_time: '2027-03-09T16:00:00Z' }),
    ];
    const sent = (
      await worker.send('POST', '/portal/api/check-ins/batch', { device_id: phone.device, punches })
    ).json();
    expect(
      sent.results.map((result: { status: string; code?: string }) => result.code ?? result.status),
    ).toEqual(['conflict', 'recorded', 'recorded']);
    expect(sent.gaps).toEqual([]);
    expect(await worked(employee.id, '2027-03-09')).toBe(60);
  });
});

describe('a kiosk’s offline punches', () => {
  async function enrolled() {
    const created = await admin.call('POST', '/dashboard/api/kiosk-devices', {
      name: 'Caseta',
      location_id: locationId,
    });
    const tablet = await new Tablet(ctx.app).init();
    pinClock(ctx.clock, ago(24));
    expect((await tablet.enroll(created.json().enrollment_code)).statusCode).toBe(200);
    pinClock(ctx.clock, NOW);
    const info = (await tablet.call('GET', '/kiosk/api/device')).json();
    return { tablet, serviceKey: info.pin_seal_key as JsonWebKey };
  }

  async function pinPunch(
    tablet: Tablet,
    serviceKey: JsonWebKey,
    employeeId: string,
    pin: string,
    fields: { type: string; device_time: string },
    sequence = tablet.sequence + 1,
  ) {
    tablet.sequence = Math.max(tablet.sequence, sequence);
    const context = [tablet.device, sequence, employeeId, fields.type, fields.device_time].join('\n');
    return await tablet.queued(
      { ...fields, employee_id: employeeId, pin_sealed: await sealPin(serviceKey, pin, context) },
      sequence,
    );
  }

  it('records punches whose PIN was sealed offline, and refuses a wrong PIN and a seal moved to another punch', async () => {
    const { tablet, serviceKey } = await enrolled();
    const { employee, worker } = await joinPortal(ctx, company.live, {
      hire_date: '2027-03-01',
      location_id: locationId,
    });
    expect((await worker.send('POST', '/portal/api/kiosk-pin', { pin: '482916' })).statusCode).toBe(200);
    const first = await pinPunch(tablet, serviceKey, employee.id, '482916', {
      type: 'in',
      device_time: ago(2),
    });
    const wrong = await pinPunch(tablet, serviceKey, employee.id, '111222', {
      type: 'out',
      device_time: ago(1),
    });
    // The seal of punch 1 copied into a new punch (another sequence and time): it does not open there.
    const sealOf = JSON.parse(first.punch).pin_sealed;
    const moved = await tablet.queued({
      type: 'out',
      device_time: ago(0.5),
      employee_id: employee.id,
      pin_sealed: sealOf,
    });
    const sent = await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: [first, wrong, moved] });
    expect(sent.statusCode, sent.body).toBe(200);
    const { results } = sent.json();
    expect(results.map((result: { status: string; code?: string }) => result.code ?? result.status)).toEqual([
      'recorded',
      'unauthenticated',
      'unauthenticated',
    ]);
    expect(results[0].check_in).toMatchObject({
      source: 'kiosk',
      device_id: tablet.device,
      recorded_offline: true,
      device_time: ago(2).replace('.000', ''),
      worker_confirmed: true,
      recorded_by: { type: 'employee', id: employee.id },
    });
    // The batch request itself is signed: sent again as it was, it is a replayed request.
    const replay = await ctx.app.inject({
      method: 'POST',
      url: '/kiosk/api/check-ins/batch',
      headers: await tablet.headers(
        'POST',
        '/kiosk/api/check-ins/batch',
        JSON.stringify({ punches: [first] }),
        tablet.counter,
      ),
      payload: JSON.stringify({ punches: [first] }),
    });
    expect(replay.statusCode).toBe(401);
    // Signed anew, the same punch is a replayed punch.
    const again = (await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: [first] })).json();
    expect(again.results[0].code).toBe('replayed');
  });

  it('counts wrong PINs from a queue against the worker’s limit, as on the screen', async () => {
    const { tablet, serviceKey } = await enrolled();
    const { employee, worker } = await joinPortal(ctx, company.live, {
      hire_date: '2027-03-01',
      location_id: locationId,
    });
    expect((await worker.send('POST', '/portal/api/kiosk-pin', { pin: '570284' })).statusCode).toBe(200);
    const guesses = [];
    for (let guess = 0; guess < 6; guess++) {
      guesses.push(
        await pinPunch(tablet, serviceKey, employee.id, `10000${guess}`, {
          type: 'in',
          device_time: ago(1 + guess / 10),
        }),
      );
    }
    guesses.push(
      await pinPunch(tablet, serviceKey, employee.id, '570284', { type: 'in', device_time: ago(0.1) }),
    );
    const sent = (await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: guesses })).json();
    expect(sent.results.map((result: { code?: string }) => result.code)).toEqual([
      'unauthenticated',
      'unauthenticated',
      'unauthenticated',
      'unauthenticated',
      'unauthenticated',
      'rate_limited',
      'rate_limited',
    ]);
  });

  it('records a punch identified by the QR code read offline in its window, once', async () => {
    const { tablet } = await enrolled();
    const { employee, worker } = await joinPortal(ctx, company.live, {
      hire_date: '2027-03-01',
      location_id: locationId,
    });
    pinClock(ctx.clock, ago(1));
    const { code } = (await worker.send('GET', '/portal/api/kiosk-code')).json();
    const readAt = ctx.clock.now().toString();
    pinClock(ctx.clock, NOW);
    const punch = await tablet.queued({ type: 'in', device_time: readAt, qr: code });
    const reused = await tablet.queued({ type: 'out', device_time: readAt, qr: code });
    // A code read two minutes after its window is not the worker's presence then.
    const stale = await tablet.queued({ type: 'out', device_time: ago(1 - 2 / 60), qr: code });
    const sent = (
      await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: [punch, reused, stale] })
    ).json();
    expect(
      sent.results.map((result: { status: string; code?: string }) => result.code ?? result.status),
    ).toEqual(['recorded', 'unauthenticated', 'unauthenticated']);
    expect(sent.results[0].check_in.employee_id).toBe(employee.id);
  });

  it('refuses a batch from a revoked kiosk, and a punch signed by another kiosk', async () => {
    const { tablet } = await enrolled();
    const { tablet: neighbour } = await enrolled();
    const { employee } = await joinPortal(ctx, company.live, {
      hire_date: '2027-03-01',
      location_id: locationId,
    });
    const alien = await neighbour.queued({
      type: 'in',
      device_time: ago(1),
      employee_id: employee.id,
      qr: 'x',
    });
    const sent = (await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: [alien] })).json();
    expect(sent.results[0].code).toBe('bad_signature');
    expect((await admin.call('DELETE', `/dashboard/api/kiosk-devices/${tablet.device}`)).statusCode).toBe(
      204,
    );
    const revoked = await tablet.call('POST', '/kiosk/api/check-ins/batch', { punches: [alien] });
    expect(revoked.statusCode).toBe(401);
  });
});

// The WebCrypto of the test runs as the browser's does: the key the tablet makes cannot be read.
it('keeps the device’s private key unreadable', async () => {
  const tablet = await new Tablet(ctx.app).init();
  await expect(webcrypto.subtle.exportKey('jwk', tablet.keys.privateKey)).rejects.toThrow();
});
