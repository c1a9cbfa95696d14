import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPhone, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { startServedApp } from '../helpers/served-app.ts';
import { companyWithInvitedWorker, type httpClient } from '../helpers/service.ts';

/**
 * The portal as an installable app that works without a connection (issue 40, decisions 0030 and 0031), at phone
 * width in Chromium against a real `jornada serve`: the service worker keeps the app, so it opens offline; the
 * worker clocks in and out offline, sees both pending, and when the connection returns they are sent and shown
 * with the phone's times, recorded as made offline (a first send lost on the way is retried). The same queue sent again is refused and the worker is told.
 * axe-core on the offline screens; screenshots in test-results/portal-offline/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/portal-offline');
const PASSWORD = 'mi contraseña sin conexión';

let served: Awaited<ReturnType<typeof startServedApp>> | undefined;
let browser: Browser;
let context: BrowserContext;
let page: Page;
keepFailures(() => page, SHOTS);
let http: ReturnType<typeof httpClient>;
let liveKey = '';
let employeeId = '';
let invitation = '';
let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];

beforeAll(async () => {
  served = await startServedApp('portal-offline');
  http = served.http;
  ({ liveKey, employeeId, invitation } = await companyWithInvitedWorker(http, 'Huertas del Sur', {
    first_name: 'Adrián',
    last_name: 'Campo',
    email: 'adrian.campo@example.com',
    hire_date: '2026-01-01',
  }));
  ({ browser, context, page } = await openPhone(10_000));
  ({ shot, accessible } = await pageChecks(SHOTS, () => page));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const status = () => page.locator('.status .state');
const pending = () => page.locator('#pending-title + ul li');
const stored = async () =>
  (await http('GET', `/v1/check-ins?employee_id=${employeeId}`, undefined, liveKey)).body.data as Array<
    Record<string, unknown>
  >;

describe('the portal without a connection', () => {
  it('is installable: a manifest, and a service worker that keeps the app', async () => {
    await page.goto(invitation);
    await page.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await page.getByLabel('Repite la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hola, Adrián' }).waitFor();
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel=manifest]');
      return link ? await (await fetch(link.href)).json() : null;
    });
    expect(manifest).toMatchObject({ start_url: '/portal', scope: '/portal', display: 'standalone' });
    // The service worker is active and controls the page (it took it over at once).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // This phone's key is registered for the worker.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const open = indexedDB.open('jornada-portal', 1);
              open.onsuccess = () => {
                const count = open.result.transaction('device').objectStore('device').count();
                count.onsuccess = () => resolve(count.result);
              };
            }),
        ),
      )
      .toBe(1);
  });

  it('opens offline, keeps a clock-in and a clock-out, and sends them when the connection returns', async () => {
    await context.setOffline(true);
    // The page itself comes from the service worker.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Hola, Adrián' }).waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page
      .getByText(/^Sin conexión: se ha guardado en este dispositivo \(Entrada, \d\d:\d\d\)/)
      .waitFor();
    await expect.poll(() => status().textContent()).toMatch(/^Trabajando desde las \d\d:\d\d$/);
    await expect.poll(() => pending().count()).toBe(1);
    await accessible();
    await shot('phone-offline-pending');
    await page.waitForTimeout(1100);
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect.poll(() => pending().count()).toBe(2);
    expect(await pending().first().textContent()).toContain('pendiente, se enviará');
    expect(await stored()).toEqual([]);

    // Keep a copy of the queue, as an attacker with the phone would, to send it again later.
    const copy = await page.evaluate(
      () =>
        new Promise<unknown[]>((resolve) => {
          const open = indexedDB.open('jornada-portal', 1);
          open.onsuccess = () => {
            const all = open.result.transaction('queue').objectStore('queue').getAll();
            all.onsuccess = () => resolve(all.result);
          };
        }),
    );
    expect(copy).toHaveLength(2);

    // The connection returns but the first send is lost on the way (a flaky network): the punches stay pending,
    // and the portal's retry while punches wait (every 10 s) sends them without another "online" event.
    let lost = 0;
    await page.route('**/portal/api/check-ins/batch', async (route) => {
      lost += 1;
      await route.abort('connectionreset');
    });
    await context.setOffline(false);
    await expect.poll(() => lost, { timeout: 10_000 }).toBe(1);
    expect(await pending().count()).toBe(2);
    await page.unroute('**/portal/api/check-ins/batch');
    await expect.poll(() => pending().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.locator('.records li').count()).toBe(2);
    await expect
      .poll(() => page.locator('.records li').first().textContent())
      .toContain('hecho sin conexión');
    const records = await stored();
    expect(records.map((record) => [record.type, record.source, record.recorded_offline])).toEqual([
      ['in', 'portal', true],
      ['out', 'portal', true],
    ]);
    for (const record of records) {
      expect(record.device_time).toBe(record.timestamp);
      expect(record.worker_confirmed).toBe(true);
    }
    await expect.poll(() => status().textContent()).toBe('Fuera de la jornada');
    // "Kept on this device" no longer holds.
    await page.getByText(/^Sin conexión: se ha guardado/).waitFor({ state: 'detached' });
    await shot('phone-offline-sent');

    // The copy put back and sent again: refused, nothing recorded twice, and the worker is told.
    await page.evaluate(
      (entries) =>
        new Promise<void>((resolve) => {
          const open = indexedDB.open('jornada-portal', 1);
          open.onsuccess = () => {
            const transaction = open.result.transaction('queue', 'readwrite');
            for (const entry of entries) transaction.objectStore('queue').add(entry);
            transaction.oncomplete = () => resolve();
          };
        }),
      copy,
    );
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByRole('heading', { name: 'Fichajes sin conexión que no se registraron' }).waitFor();
    expect(await page.locator('#refused-title + ul').textContent()).toContain(
      'este dispositivo ya lo había enviado',
    );
    expect(await stored()).toHaveLength(2);
    await accessible();
    await shot('phone-offline-replayed');
  });
});
