import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../helpers/dashboard.ts';
import { ensureDashboardBuilt } from '../helpers/dashboard-build.ts';
import { qrVideo } from '../helpers/kiosk.ts';
import { joinPortal, type PortalWorker } from '../helpers/portal.ts';

/**
 * A worker identifies on the kiosk with the QR code of their portal (issue 40, decision 0032), read by the
 * tablet's camera: Chromium's fake camera plays a video of the code the portal gives for this 30-second window.
 * The worker clocks in; the same code read again is refused (used once). axe-core on the scanner; screenshots in
 * test-results/kiosk/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/kiosk');
const VIDEO = path.join(os.tmpdir(), `jornada-kiosk-qr-${process.pid}.y4m`);

let ctx: TestContext;
let company: TestCompany;
let admin: DashboardSession;
let worker: PortalWorker;
let browser: Browser;
let page: Page;
let base = '';
let employeeId = '';
let locationId = '';
keepFailures(() => page, SHOTS);
let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];

beforeAll(async () => {
  await ensureDashboardBuilt();
  ctx = await createTestContext();
  company = await ctx.createCompany({ name: 'Viveros Sur', timezone: 'Europe/Madrid' });
  const login = await createAdmin(ctx, company.id, { role: 'admin' });
  admin = await dashboardSession(ctx, login.email, login.password);
  locationId = (
    await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Vivero' })
  ).json().id;
  const joined = await joinPortal(ctx, company.live, {
    first_name: 'Iker',
    last_name: 'Gaztelu',
    location_id: locationId,
  });
  worker = joined.worker;
  employeeId = joined.employee.id;
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

describe('the kiosk’s camera', () => {
  it('reads the worker’s QR code, clocks them in, and refuses the same code again', async () => {
    // The code of a window just begun (the service's clock set to its start, so that the whole test fits in
    // it), as the portal shows it, played by the fake camera.
    const next = Math.ceil(ctx.clock.now().epochMilliseconds / 30_000) * 30_000 + 100;
    pinClock(ctx.clock, new Date(next).toISOString());
    const { code } = (await worker.send('GET', '/portal/api/kiosk-code')).json();
    await qrVideo(code, VIDEO);
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${VIDEO}`,
    ]);
    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      permissions: ['camera'],
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    ({ shot, accessible } = await pageChecks(SHOTS, () => page));

    const created = await admin.call('POST', '/dashboard/api/kiosk-devices', {
      name: 'Puerta',
      location_id: locationId,
    });
    await page.goto(`${base}/kiosk`);
    await page.getByLabel('Código de activación').fill(created.json().enrollment_code);
    await page.getByRole('button', { name: 'Activar' }).click();
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor();

    await page.getByRole('button', { name: 'Escanear mi código QR' }).click();
    await page.getByRole('heading', { name: 'Muestra tu código QR a la cámara' }).waitFor();
    await accessible();
    await shot('scan-es');
    await page.getByRole('heading', { name: 'Iker Gaztelu' }).waitFor();
    await page.getByRole('button', { name: 'Entrada' }).click();
    await page.getByRole('heading', { name: /^Entrada registrada · \d\d:\d\d$/ }).waitFor();
    const records = (await company.live.get('/v1/check-ins', { query: { employee_id: employeeId } })).json()
      .data;
    expect(records).toMatchObject([
      {
        type: 'in',
        source: 'kiosk',
        worker_confirmed: true,
        recorded_by: { type: 'employee', id: employeeId },
      },
    ]);

    // The same code shown again (a photo of the screen, say): refused, it was used.
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor({ timeout: 8_000 });
    await page.getByRole('button', { name: 'Escanear mi código QR' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('El código no es válido, ya se usó o ha caducado.');
    expect(
      (await company.live.get('/v1/check-ins', { query: { employee_id: employeeId } })).json().data,
    ).toHaveLength(1);
  }, 60_000);
});
