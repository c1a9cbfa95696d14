import { createHash, webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { Tablet } from '../../../helpers/kiosk.ts';
import { joinPortal } from '../../../helpers/portal.ts';
import { rewriteCheckIn } from '../../../helpers/tamper.ts';

/**
 * Issue 40, shared kiosks: a tablet enrolled from the dashboard with a one-time code signs every request with a
 * key made by WebCrypto (here the same API, in Node); a worker identifies with a PIN only they know and punches
 * their own record. The attacks: a forged signature, a replayed request, a revoked device, a used or expired
 * code, a guessed PIN (throttled per worker and per device), a ticket used twice or by another device, another
 * company's worker.
 */
let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
let admin: DashboardSession;
let locationId: string;

async function enrolledTablet(name = 'Entrada') {
  const created = await admin.call('POST', '/dashboard/api/kiosk-devices', { name, location_id: locationId });
  expect(created.statusCode, created.body).toBe(201);
  const tablet = await new Tablet(ctx.app).init();
  expect((await tablet.enroll(created.json().enrollment_code)).statusCode).toBe(200);
  return tablet;
}

async function workerWithPin(pin: string) {
  const { employee, worker } = await joinPortal(ctx, company.live, { location_id: locationId });
  const set = await worker.send('POST', '/portal/api/kiosk-pin', { pin });
  expect(set.statusCode, set.body).toBe(200);
  return { employee, worker };
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ name: 'Tiendas Sol', timezone: 'Europe/Madrid' });
  other = await ctx.createCompany({ name: 'Other' });
  const owner = await createAdmin(ctx, company.id, { role: 'admin' });
  admin = await dashboardSession(ctx, owner.email, owner.password);
  locationId = (
    await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Tienda Sol' })
  ).json().id;
});
afterAll(() => ctx.close());

describe('enrolling a kiosk', () => {
  it('enrolls a tablet with its one-time code, lists it, and refuses the code a second time', async () => {
    const created = await admin.call('POST', '/dashboard/api/kiosk-devices', {
      name: 'Puerta',
      location_id: locationId,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Puerta',
      status: 'pending',
      location: { name: 'Tienda Sol' },
    });
    const code = created.json().enrollment_code as string;
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const tablet = await new Tablet(ctx.app).init();
    // Typed in lower case and without the dash, as people type.
    const enrolled = await tablet.enroll(code.toLowerCase().replace('-', ''));
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json()).toMatchObject({ name: 'Puerta', location: { name: 'Tienda Sol' } });
    const again = await (await new Tablet(ctx.app).init()).enroll(code);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('unauthenticated');
    const listed = (await admin.call('GET', '/dashboard/api/kiosk-devices')).json().data;
    expect(listed.find((row: { id: string }) => row.id === tablet.device)).toMatchObject({
      status: 'active',
      enrollment_expires_at: null,
    });
    // The code is never listed.
    expect(JSON.stringify(listed)).not.toContain(code);
  });

  it('refuses an expired code, a private key and another company’s work centre', async () => {
    const created = (
      await admin.call('POST', '/dashboard/api/kiosk-devices', { name: 'Tarde', location_id: locationId })
    ).json();
    ctx.clock.advance(16 * 60);
    expect((await (await new Tablet(ctx.app).init()).enroll(created.enrollment_code)).statusCode).toBe(401);
    const fresh = (
      await admin.call('POST', '/dashboard/api/kiosk-devices', { name: 'Tarde 2', location_id: locationId })
    ).json();
    const extractable = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
    ])) as CryptoKeyPair;
    const withPrivate = await ctx.app.inject({
      method: 'POST',
      url: '/kiosk/api/enroll',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        code: fresh.enrollment_code,
        public_key: await webcrypto.subtle.exportKey('jwk', extractable.privateKey),
      }),
    });
    expect(withPrivate.statusCode).toBe(422);
    const foreignLocation = (
      await ctx.admin.post(`/admin/v1/companies/${other.id}/locations`, { name: 'Ajena' })
    ).json().id;
    const across = await admin.call('POST', '/dashboard/api/kiosk-devices', {
      name: 'Ajena',
      location_id: foreignLocation,
    });
    expect(across.statusCode).toBe(422);
  });
});

describe('signed requests', () => {
  it('answers a signed request, and refuses a forged, replayed, unsigned or revoked one', async () => {
    const tablet = await enrolledTablet('Firmas');
    const ok = await tablet.call('GET', '/kiosk/api/device');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Firmas', company: { name: 'Tiendas Sol' } });

    // Replayed: the same headers (the same counter) a second time.
    const headers = await tablet.headers('GET', '/kiosk/api/workers', '');
    expect((await ctx.app.inject({ method: 'GET', url: '/kiosk/api/workers', headers })).statusCode).toBe(
      200,
    );
    const replay = await ctx.app.inject({ method: 'GET', url: '/kiosk/api/workers', headers });
    expect(replay.statusCode).toBe(401);
    // A lower counter than one used.
    const lower = await ctx.app.inject({
      method: 'GET',
      url: '/kiosk/api/workers',
      headers: await tablet.headers('GET', '/kiosk/api/workers', '', 1),
    });
    expect(lower.statusCode).toBe(401);

    // Forged: signed by another key under this device's id.
    const forger = await new Tablet(ctx.app).init();
    forger.device = tablet.device;
    forger.counter = tablet.counter + 100;
    expect((await forger.call('GET', '/kiosk/api/device')).statusCode).toBe(401);
    // …and burned none of the device's counters: its next request, far below the forger's counter, is answered.
    expect((await tablet.call('GET', '/kiosk/api/device')).statusCode).toBe(200);
    // A signature over another body.
    const signed = await tablet.headers('POST', '/kiosk/api/identify', JSON.stringify({ a: 1 }));
    const swapped = await ctx.app.inject({
      method: 'POST',
      url: '/kiosk/api/identify',
      headers: signed,
      payload: JSON.stringify({ employee_id: '00000000-0000-4000-8000-000000000000', pin: '192837' }),
    });
    expect(swapped.statusCode).toBe(401);
    // Unsigned.
    expect((await ctx.app.inject({ method: 'GET', url: '/kiosk/api/device' })).statusCode).toBe(401);

    const revoked = await admin.call('DELETE', `/dashboard/api/kiosk-devices/${tablet.device}`);
    expect(revoked.statusCode).toBe(204);
    const after = await tablet.call('GET', '/kiosk/api/device');
    expect(after.statusCode).toBe(401);
    expect(after.headers['content-type']).toContain('application/problem+json');
  });
});

describe('PIN and punch', () => {
  it('identifies a worker by PIN and records the punch as the worker’s own, naming the device', async () => {
    const tablet = await enrolledTablet('Fichar');
    const { employee, worker } = await workerWithPin('482915');
    expect((await worker.send('GET', '/portal/api/kiosk-pin')).json()).toEqual({ pin_set: true });
    const workers = (await tablet.call('GET', '/kiosk/api/workers')).json().data as Array<{ id: string }>;
    expect(workers.map((row) => row.id)).toContain(employee.id);

    const identified = await tablet.call('POST', '/kiosk/api/identify', {
      employee_id: employee.id,
      pin: '482915',
    });
    expect(identified.statusCode, identified.body).toBe(200);
    expect(identified.json()).toMatchObject({ status: 'out', actions: ['in'], worker: { id: employee.id } });
    const punched = await tablet.call('POST', '/kiosk/api/check-ins', {
      ticket: identified.json().ticket,
      type: 'in',
    });
    expect(punched.statusCode, punched.body).toBe(201);
    expect(punched.json()).toMatchObject({
      employee_id: employee.id,
      type: 'in',
      source: 'kiosk',
      device_id: tablet.device,
      worker_confirmed: true,
      recorded_by: { type: 'employee', id: employee.id },
    });
    // The API shows the device too.
    const read = (await company.live.get(`/v1/check-ins/${punched.json().id}`)).json();
    expect(read.device_id).toBe(tablet.device);
    // An operator with SQL who moves the punch to another device (or to none) is caught by verification.
    const verify = async () =>
      (await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } })).json();
    expect((await verify()).ok).toBe(true);
    await rewriteCheckIn(ctx.db, punched.json().id, { device_id: null });
    const tampered = await verify();
    expect(tampered.ok).toBe(false);
    expect(JSON.stringify(tampered.problems)).toContain(punched.json().id);
    await rewriteCheckIn(ctx.db, punched.json().id, { device_id: tablet.device });

    // The ticket is spent.
    const twice = await tablet.call('POST', '/kiosk/api/check-ins', {
      ticket: identified.json().ticket,
      type: 'out',
    });
    expect(twice.statusCode).toBe(401);
    const next = await tablet.call('POST', '/kiosk/api/identify', {
      employee_id: employee.id,
      pin: '482915',
    });
    expect(next.json()).toMatchObject({ status: 'working', actions: ['break_start', 'out'] });
    // Another kiosk cannot use this kiosk's ticket.
    const elsewhere = await enrolledTablet('Otra');
    expect(
      (await elsewhere.call('POST', '/kiosk/api/check-ins', { ticket: next.json().ticket, type: 'out' }))
        .statusCode,
    ).toBe(401);
    // A ticket lasts a minute.
    ctx.clock.advance(61);
    expect(
      (await tablet.call('POST', '/kiosk/api/check-ins', { ticket: next.json().ticket, type: 'out' }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses a weak PIN and never shows a PIN to the company', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { location_id: locationId });
    for (const pin of ['12345', '111111', '123456', '987654', 'abcdef']) {
      const refused = await worker.send('POST', '/portal/api/kiosk-pin', { pin });
      expect(refused.statusCode, pin).toBe(422);
    }
    expect((await worker.send('POST', '/portal/api/kiosk-pin', { pin: '305718' })).statusCode).toBe(200);
    const stored = await ctx.db
      .selectFrom('kiosk_pins')
      .selectAll()
      .where('employee_id', '=', employee.id)
      .executeTakeFirstOrThrow();
    // Neither the PIN nor a hash anyone can test without the instance's key.
    expect(JSON.stringify(stored)).not.toContain('305718');
    expect(stored.pin_hmac.equals(createHash('sha256').update('305718').digest())).toBe(false);
    const employeeView = (await company.live.get(`/v1/employees/${employee.id}`)).body;
    expect(employeeView).not.toContain('305718');
  });

  it('throttles wrong PINs per worker and per device, a right PIN included once locked', async () => {
    const tablet = await enrolledTablet('Adivinar');
    const { employee } = await workerWithPin('640275');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await tablet.call('POST', '/kiosk/api/identify', {
        employee_id: employee.id,
        pin: `00000${i}`,
      });
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await tablet.call('POST', '/kiosk/api/identify', {
      employee_id: employee.id,
      pin: '640275',
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another kiosk meets the same lock: it is the worker's.
    const other = await enrolledTablet('Adivinar 2');
    expect(
      (await other.call('POST', '/kiosk/api/identify', { employee_id: employee.id, pin: '640275' }))
        .statusCode,
    ).toBe(429);
    ctx.clock.advance(16 * 60);
    expect(
      (await other.call('POST', '/kiosk/api/identify', { employee_id: employee.id, pin: '640275' }))
        .statusCode,
    ).toBe(200);

    // Per device: guessing across many workers is stopped after 20 wrong PINs on one tablet.
    const guesser = await enrolledTablet('Adivinar 3');
    const many = await Promise.all(
      Array.from({ length: 5 }, (_, i) => workerWithPin(`${740281 + i * 11}`.slice(0, 6))),
    );
    let refusedAt = -1;
    for (let i = 0; i < 25 && refusedAt < 0; i += 1) {
      const target = many[i % many.length]?.employee.id;
      const answer = await guesser.call('POST', '/kiosk/api/identify', {
        employee_id: target,
        pin: '000000',
      });
      if (answer.statusCode === 429) refusedAt = i;
    }
    expect(refusedAt).toBe(20);
  });

  it('identifies a worker by the QR code of their portal, once, within its 30 seconds', async () => {
    const tablet = await enrolledTablet('QR');
    const { employee, worker } = await joinPortal(ctx, company.live, { location_id: locationId });
    const shown = await worker.send('GET', '/portal/api/kiosk-code');
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    const { code } = shown.json() as { code: string };
    const identified = await tablet.call('POST', '/kiosk/api/identify', { qr: code });
    expect(identified.statusCode, identified.body).toBe(200);
    expect(identified.json().worker.id).toBe(employee.id);
    const punched = await tablet.call('POST', '/kiosk/api/check-ins', {
      ticket: identified.json().ticket,
      type: 'in',
    });
    expect(punched.json()).toMatchObject({
      source: 'kiosk',
      device_id: tablet.device,
      worker_confirmed: true,
    });
    // Single use: a photo of the code is worth nothing once it was scanned.
    expect((await tablet.call('POST', '/kiosk/api/identify', { qr: code })).statusCode).toBe(401);
    // Expired: a code kept for a minute is refused.
    const kept = (await worker.send('GET', '/portal/api/kiosk-code')).json().code as string;
    ctx.clock.advance(60);
    expect((await tablet.call('POST', '/kiosk/api/identify', { qr: kept })).statusCode).toBe(401);
    // Forged: another worker's id under this worker's proof, or a proof made up.
    const fresh = (await worker.send('GET', '/portal/api/kiosk-code')).json().code as string;
    const { employee: colleague } = await joinPortal(ctx, company.live, { location_id: locationId });
    const swapped = fresh.replace(employee.id, colleague.id);
    const swappedAnswer = await tablet.call('POST', '/kiosk/api/identify', { qr: swapped });
    expect(swappedAnswer.statusCode).toBe(401);
    expect(swappedAnswer.json().errors.qr).toBeDefined();
    const madeUp = `${fresh.slice(0, fresh.lastIndexOf(':'))}:AAAAAAAAAAAAAAAAAAAAAA`;
    expect((await tablet.call('POST', '/kiosk/api/identify', { qr: madeUp })).statusCode).toBe(401);
    // The genuine code still works: the forgeries did not spend it.
    expect((await tablet.call('POST', '/kiosk/api/identify', { qr: fresh })).statusCode).toBe(200);
  });

  it('never identifies another company’s worker', async () => {
    const tablet = await enrolledTablet('Aislamiento');
    const { employee, worker } = await joinPortal(ctx, other.live);
    expect((await worker.send('POST', '/portal/api/kiosk-pin', { pin: '519073' })).statusCode).toBe(200);
    const across = await tablet.call('POST', '/kiosk/api/identify', {
      employee_id: employee.id,
      pin: '519073',
    });
    expect(across.statusCode).toBe(401);
  });
});
