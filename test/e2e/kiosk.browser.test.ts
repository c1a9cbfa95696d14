import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe.ts';
import { launchChromium, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { createTestContext, type TestCompany, type TestContext } from '../helpers/context.ts';
import { createAdmin } from '../helpers/dashboard.ts';
import { ensureDashboardBuilt } from '../helpers/dashboard-build.ts';
import { joinPortal } from '../helpers/portal.ts';

/**
 * The kiosk page (issue 40) in Chromium at a landscape tablet's size (1024×768), over real HTTP against the
 * service on a real database: the tablet enrolls with the dashboard's code (its key made by the browser's
 * WebCrypto and kept in IndexedDB), a worker taps their name, types their PIN and clocks in; then the connection
 * drops (`setOffline`), the worker clocks out, the punch waits on the tablet, and is sent when the connection
 * returns, recorded as made offline with the tablet's time. axe-core on each screen, Spanish and English;
 * screenshots in test-results/kiosk/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/kiosk');

let ctx: TestContext;
let company: TestCompany;
let login = { email: '', password: '' };
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base = '';
let employeeId = '';
let employeeEmail = '';
let locationId = '';
keepFailures(() => page, SHOTS);
let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];

beforeAll(async () => {
  await ensureDashboardBuilt();
  ctx = await createTestContext();
  company = await ctx.createCompany({ name: 'Obras Norte', timezone: 'Europe/Madrid' });
  login = await createAdmin(ctx, company.id, { role: 'admin' });
  locationId = (
    await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Obra Norte' })
  ).json().id;
  const { employee, worker } = await joinPortal(ctx, company.live, {
    first_name: 'Rocío',
    last_name: 'Durán',
    location_id: locationId,
  });
  employeeId = employee.id;
  employeeEmail = employee.email;
  expect((await worker.send('POST', '/portal/api/kiosk-pin', { pin: '482916' })).statusCode).toBe(200);
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1024, height: 768 },
    hasTouch: true,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  ({ shot, accessible } = await pageChecks(SHOTS, () => page));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const checkIns = async () =>
  (await company.live.get('/v1/check-ins', { query: { employee_id: employeeId } })).json().data as Array<
    Record<string, unknown>
  >;

async function typePin(pin: string) {
  for (const digit of pin) await page.getByRole('button', { name: `Cifra ${digit}`, exact: true }).click();
  await page.getByRole('button', { name: 'Aceptar' }).click();
}

describe('the kiosk', () => {
  it('enrolls with the dashboard’s code, and a worker clocks in with their PIN', async () => {
    // The administrator adds the device in the dashboard, on a page of their own.
    const dashboard = await context.newPage();
    dashboard.setDefaultTimeout(10_000);
    await dashboard.goto(`${base}/dashboard#/kiosks`);
    await dashboard.getByLabel('Correo electrónico', { exact: true }).fill(login.email);
    await dashboard.getByLabel('Contraseña', { exact: true }).fill(login.password);
    await dashboard.getByRole('button', { name: 'Entrar', exact: true }).click();
    await dashboard.getByRole('heading', { name: 'Añadir un dispositivo de fichaje' }).waitFor();
    await dashboard.getByLabel('Nombre', { exact: true }).fill('Caseta');
    await dashboard.getByRole('button', { name: 'Añadir dispositivo' }).click();
    const code = (await dashboard.getByTestId('secret').textContent()) ?? '';
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    await dashboard.getByRole('cell', { name: 'Caseta', exact: true }).waitFor();
    expect(await axeViolations(dashboard)).toEqual([]);
    await shot('dashboard-devices-es', dashboard);

    await page.goto(`${base}/kiosk`);
    await page.getByLabel('Código de activación').fill('WRONG-CODE');
    await page.getByRole('button', { name: 'Activar' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('no es válido');
    await accessible();
    await shot('enroll-es');
    await page.getByLabel('Código de activación').fill(code);
    await page.getByRole('button', { name: 'Activar' }).click();
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor();
    await accessible();
    await shot('idle-es');

    // The dashboard shows the device active, seen just now.
    await dashboard.reload();
    await dashboard.getByRole('cell', { name: 'en vigor' }).waitFor();
    await dashboard.close();

    await page.getByRole('button', { name: 'Rocío Durán' }).click();
    await page.getByRole('heading', { name: 'PIN de Rocío Durán' }).waitFor();
    await accessible();
    await shot('pin-es');
    await typePin('111111');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('PIN incorrecto.');
    await typePin('482916');
    await page.getByText('Fuera', { exact: true }).waitFor();
    await accessible();
    await shot('actions-es');
    await page.getByRole('button', { name: 'Entrada' }).click();
    await page.getByRole('heading', { name: /^Entrada registrada · \d\d:\d\d$/ }).waitFor();
    const [punched] = await checkIns();
    expect(punched).toMatchObject({
      type: 'in',
      source: 'kiosk',
      recorded_offline: false,
      worker_confirmed: true,
    });
    // Back to the list by itself.
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor({ timeout: 8_000 });
  }, 60_000);

  it('keeps a punch made without a connection and sends it when the connection returns', async () => {
    await context.setOffline(true);
    await page.getByText('Sin conexión', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Rocío Durán' }).click();
    await typePin('482916');
    await page.getByText('Sin conexión: elige qué registrar.').waitFor();
    await page.getByRole('button', { name: 'Salida' }).click();
    await page.getByText('Guardado sin conexión: se enviará al volver la conexión.').waitFor();
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor({ timeout: 8_000 });
    await page.getByText('1 fichaje pendiente de enviar').waitFor();
    await accessible();
    await shot('offline-pending-es');
    expect((await checkIns()).map((record) => record.type)).toEqual(['in']);

    await context.setOffline(false);
    await page.getByText('1 fichaje pendiente de enviar').waitFor({ state: 'detached' });
    const records = await checkIns();
    expect(records.map((record) => record.type)).toEqual(['in', 'out']);
    expect(records[1]).toMatchObject({ source: 'kiosk', recorded_offline: true, worker_confirmed: true });
    expect(records[1]?.device_time).toBe(records[1]?.timestamp);
  });

  it('takes the PIN the worker sets in the portal, where the QR code is shown too', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      locale: 'es-ES',
    });
    const portal = await phone.newPage();
    portal.setDefaultTimeout(10_000);
    await portal.goto(`${base}/portal#/account`);
    await portal.getByLabel('Correo electrónico').fill(employeeEmail);
    await portal.getByLabel('Contraseña').fill('correct horse battery');
    await portal.getByRole('button', { name: 'Entrar', exact: true }).click();
    await portal.getByRole('heading', { name: 'Fichar en un kiosko' }).waitFor();
    await portal.getByText('Ya tienes un PIN. Puedes cambiarlo cuando quieras.').waitFor();
    await portal.getByLabel('PIN nuevo (6 cifras)').fill('123456');
    await portal.getByRole('button', { name: 'Cambiar el PIN' }).click();
    await portal
      .getByRole('alert')
      .getByText(/serie|run/)
      .waitFor();
    await portal.getByLabel('PIN nuevo (6 cifras)').fill('735901');
    await portal.getByRole('button', { name: 'Cambiar el PIN' }).click();
    await portal.getByRole('status').getByText('PIN guardado.').waitFor();
    await portal.getByRole('button', { name: 'Mostrar mi código QR' }).click();
    const qr = portal.getByRole('img', { name: 'Tu código QR para el kiosko' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await axeViolations(portal)).toEqual([]);
    await shot('portal-kiosk-card-es', portal);
    await phone.close();

    // On the kiosk, the old PIN no longer works and the new one does.
    await page.getByRole('button', { name: 'Rocío Durán' }).click();
    await typePin('482916');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('PIN incorrecto.');
    await typePin('735901');
    await page.getByText(/^(Fuera|Trabajando desde)/).waitFor();
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor();
  }, 60_000);

  it('sends the tablet’s position where the centre asks for it, after the notice, or none when declined', async () => {
    const patched = await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${locationId}`, {
      location_capture: 'at_punch',
      geofence: { latitude: 43.263, longitude: -2.935, radius_m: 150 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 43.2631, longitude: -2.9351, accuracy: 20 });
    await page.reload();
    const punch = async (decline: boolean) => {
      await page.getByRole('button', { name: 'Rocío Durán' }).click();
      await typePin('735901');
      await page.getByText(/registra dónde está este kiosko al fichar/).waitFor();
      if (decline) await page.getByLabel('Fichar sin ubicación').check();
      const action = page.getByRole('button', { name: /^(Entrada|Salida)$/ });
      await action.click();
      await page.getByRole('heading', { name: /registrada · \d\d:\d\d$/ }).waitFor();
      await page.getByRole('heading', { name: 'Toca tu nombre' }).waitFor({ timeout: 8_000 });
    };
    await page.getByRole('button', { name: 'Rocío Durán' }).click();
    await typePin('735901');
    await page.getByText(/registra dónde está este kiosko al fichar/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot('actions-location-es');
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await punch(false);
    await punch(true);
    const [located, declined] = (await checkIns()).slice(-2);
    expect(located?.location).toMatchObject({ latitude: 43.263, longitude: -2.935, outside_geofence: false });
    expect(declined?.location).toBe('declined');
  }, 60_000);

  it('speaks English on request, with every target at least 64 pixels high', async () => {
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await accessible();
    await shot('idle-en');
    await page.getByRole('button', { name: 'Rocío Durán' }).click();
    await page.getByRole('heading', { name: 'PIN for Rocío Durán' }).waitFor();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.kiosk-main button')]
        .filter((button) => button.getBoundingClientRect().height < 64)
        .map((button) => button.textContent),
    );
    expect(small).toEqual([]);
    await accessible();
    await shot('pin-en');
  });
});
