import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { startServedApp } from '../helpers/served-app.ts';
import { companyWithLiveKey, E2E_ADMIN_TOKEN, type httpClient } from '../helpers/service.ts';

/**
 * Location at the punch in the portal (issue 40, docs/privacy.md), at phone width in Chromium against a real
 * `jornada serve`, with a fake position: where the work centre asks for it, the worker reads the notice before
 * the first position is asked, punches inside the geofence and then outside, and sees in the day what was
 * captured; on another phone the worker declines and still punches. axe-core on the notice, Spanish and English;
 * screenshots in test-results/portal-location/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/portal-location');
const PASSWORD = 'mi contraseña con ubicación';
const CENTRE = { latitude: 39.4699, longitude: -0.3763 };

let served: Awaited<ReturnType<typeof startServedApp>> | undefined;
let browser: Browser;
let context: BrowserContext;
let page: Page;
keepFailures(() => page, SHOTS);
let http: ReturnType<typeof httpClient>;
let liveKey = '';
let employeeId = '';
let email = '';
let invitation = '';
let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];

const phone = async (position: { latitude: number; longitude: number }) => {
  const opened = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    geolocation: { ...position, accuracy: 12 },
    permissions: ['geolocation'],
    locale: 'es-ES',
  });
  const tab = await opened.newPage();
  tab.setDefaultTimeout(10_000);
  return { opened, tab };
};

beforeAll(async () => {
  served = await startServedApp('portal-location');
  http = served.http;
  const company = await companyWithLiveKey(http, 'Obras Levante', [
    'org:empleados:write',
    'org:fichajes:read',
  ]);
  liveKey = company.liveKey;
  const centre = await http(
    'POST',
    `/admin/v1/companies/${company.companyId}/locations`,
    { name: 'Obra Puerto' },
    E2E_ADMIN_TOKEN,
  );
  expect(centre.status, centre.text).toBe(201);
  const capture = await http(
    'PATCH',
    `/admin/v1/companies/${company.companyId}/locations/${centre.body.id}`,
    { location_capture: 'at_punch', geofence: { ...CENTRE, radius_m: 200 } },
    E2E_ADMIN_TOKEN,
  );
  expect(capture.status, capture.text).toBe(200);
  email = 'nerea.puerto@example.com';
  const employee = await http(
    'POST',
    '/v1/employees',
    { first_name: 'Nerea', last_name: 'Puerto', email, hire_date: '2026-01-01', location_id: centre.body.id },
    liveKey,
  );
  expect(employee.status, employee.text).toBe(201);
  employeeId = employee.body.id;
  const invited = await http('POST', `/v1/employees/${employeeId}/portal-invitation`, {}, liveKey);
  expect(invited.status, invited.text).toBe(201);
  invitation = invited.body.url;
  browser = await launchChromium();
  ({ opened: context, tab: page } = await phone(CENTRE));
  ({ shot, accessible } = await pageChecks(SHOTS, () => page));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const stored = async () =>
  (await http('GET', `/v1/check-ins?employee_id=${employeeId}`, undefined, liveKey)).body.data as Array<{
    type: string;
    location: unknown;
  }>;

describe('location at the punch in the portal', () => {
  it('shows the notice before the first position, then records it inside and outside the area', async () => {
    await page.goto(invitation);
    await page.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await page.getByLabel('Repite la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hola, Nerea' }).waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    const notice = page.getByRole('dialog', { name: 'Ubicación al fichar' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'Obras Levante registra dónde fichas, solo en el momento de fichar en Obra Puerto',
    );
    expect(await stored()).toEqual([]);
    await accessible();
    await shot('phone-notice-es');
    await page.getByRole('button', { name: 'Compartir ubicación y fichar' }).click();
    await page.getByText(/^ubicación 39\.470, -0\.376 \(±12 m\), dentro del área$/).waitFor();

    // Later punches ask the device at once (the notice was read), here 300 km away.
    await context.setGeolocation({ latitude: 40.4168, longitude: -3.7038, accuracy: 30 });
    await page.getByRole('button', { name: 'Empezar pausa' }).click();
    await page.getByText(/^ubicación 40\.417, -3\.704 \(±30 m\), fuera del área$/).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shot('phone-located-es');
    expect((await stored()).map((record) => record.location)).toEqual([
      { latitude: 39.47, longitude: -0.376, accuracy_m: 12, distance_m: 0, outside_geofence: false },
      expect.objectContaining({
        latitude: 40.417,
        longitude: -3.704,
        accuracy_m: 30,
        outside_geofence: true,
      }),
    ]);
  });

  it('lets the worker decline on another phone and still punch, in English', async () => {
    const other = await phone(CENTRE);
    await other.tab.goto(served?.base ? `${served.base}/portal` : '');
    await other.tab.getByRole('button', { name: 'Switch to English' }).click();
    await other.tab.getByLabel('Email').fill(email);
    await other.tab.getByLabel('Password').fill(PASSWORD);
    await other.tab.getByRole('button', { name: 'Log in', exact: true }).click();
    await other.tab.getByRole('heading', { level: 1, name: 'Hello, Nerea' }).waitFor();
    await other.tab.getByRole('button', { name: 'End the break' }).click();
    await other.tab.getByRole('dialog', { name: 'Location when you punch' }).waitFor();
    await accessible(other.tab);
    await shot('phone-notice-en', other.tab);
    await other.tab.getByRole('button', { name: 'Punch without location' }).click();
    await other.tab.getByText('location not shared').waitFor();
    expect((await stored()).at(-1)).toMatchObject({ type: 'break_end', location: 'declined' });
    await other.opened.close();
  });
});
