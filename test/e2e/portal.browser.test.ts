import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPhone, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { startServedApp } from '../helpers/served-app.ts';
import { companyWithInvitedWorker, type httpClient } from '../helpers/service.ts';

/**
 * The workers' portal in a real browser at phone width (390×844): Chromium driven by playwright-core, against a
 * real `jornada serve` process. A worker accepts the invitation, clocks in, takes a break, clocks out, sees the
 * day, asks for a correction and accepts one from the company; axe-core finds no WCAG A/AA violation on any
 * screen. Screenshots (phone and desktop) go to test-results/portal/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/portal');
const PASSWORD = 'mi contraseña de prueba';

let served: Awaited<ReturnType<typeof startServedApp>> | undefined;
let browser: Browser;
let page: Page;
keepFailures(() => page, SHOTS);
let base = '';
let http: ReturnType<typeof httpClient>;
let liveKey = '';
let employeeId = '';
let invitation = '';

beforeAll(async () => {
  served = await startServedApp('portal');
  base = served.base;
  http = served.http;
  ({ liveKey, employeeId, invitation } = await companyWithInvitedWorker(http, 'Panadería Sol', {
    first_name: 'Lucía',
    last_name: 'Portal',
    email: 'lucia.portal@example.com',
    hire_date: '2026-01-01',
  }));

  ({ browser, page } = await openPhone(10_000));
  ({ shot, accessible } = await pageChecks(SHOTS, () => page));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];
const status = () => page.locator('.status .state');
/** The tab bar's links cut off or beyond the screen's edge. */
const clippedTabs = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.tabs a')]
      .filter(
        (link) =>
          link.scrollWidth > link.clientWidth + 1 ||
          link.getBoundingClientRect().right > window.innerWidth + 1,
      )
      .map((link) => link.textContent),
  );
const tab = async (name: string) => {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
};

describe('the workers’ portal in Chromium at phone width', () => {
  it('accepts the invitation in Spanish and lands on today', async () => {
    await page.goto(invitation);
    await page.getByRole('heading', { name: 'Crea tu contraseña' }).waitFor();
    await accessible();
    await shot('phone-invitation');
    await page.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await page.getByLabel('Repite la contraseña').fill('otra contraseña distinta');
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('alert').getByText('Las contraseñas no coinciden.').waitFor();
    await page.getByLabel('Repite la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hola, Lucía' }).waitFor();
    // The token left the address bar.
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => status().textContent()).toBe('Fuera de la jornada');
    await accessible();
    await shot('phone-today-out');
  });

  it('answers a used invitation link in one language, Spanish or English (issue 39)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const stranger = await context.newPage();
    await stranger.goto(invitation);
    await stranger.getByLabel('Contraseña (12 caracteres o más)').fill('otra contraseña larga');
    await stranger.getByLabel('Repite la contraseña').fill('otra contraseña larga');
    await stranger.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    const alert = stranger.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Este enlace no existe, ya se usó o ha caducado: pide a tu empresa uno nuevo.',
    );
    await stranger.getByRole('button', { name: 'Switch to English' }).click();
    await stranger.getByRole('button', { name: 'Create password and log in' }).click();
    await expect
      .poll(() => alert.textContent())
      .toBe('This invitation does not exist, was used already or has expired.');
    await context.close();
  });

  it('clocks in remotely, takes a break, clocks out, and lists the day’s records', async () => {
    await page.getByLabel('Teletrabajo').check();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => status().textContent()).toMatch(/^Trabajando desde las \d\d:\d\d$/);
    await accessible();
    await shot('phone-today-working');
    await page.getByRole('button', { name: 'Empezar pausa' }).click();
    await expect.poll(() => status().textContent()).toMatch(/^En pausa desde las/);
    await page.getByRole('button', { name: 'Volver de la pausa' }).click();
    await expect.poll(() => status().textContent()).toMatch(/^Trabajando/);
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect.poll(() => status().textContent()).toBe('Fuera de la jornada');
    const records = page.locator('.records li');
    await expect.poll(() => records.count()).toBe(4);
    expect(await records.first().textContent()).toContain('Teletrabajo');
    await shot('phone-today-done');
    const stored = await http('GET', `/v1/check-ins?employee_id=${employeeId}`, undefined, liveKey);
    expect(stored.body.data.map((row: { source: string }) => row.source)).toEqual([
      'portal',
      'portal',
      'portal',
      'portal',
    ]);
    expect(stored.body.data[0].recorded_by).toEqual({ type: 'employee', id: employeeId });
  });

  it('shows the day in “Mi registro”', async () => {
    await tab('Mi registro');
    await page.locator('article.day').first().waitFor();
    expect(await page.locator('article.day .records li').count()).toBe(4);
    await accessible();
    await shot('phone-record');
  });

  it('asks for a correction with a reason', async () => {
    await tab('Correcciones');
    const breaks = page.locator('form .records li');
    await expect.poll(() => breaks.count()).toBe(4);
    await page.getByRole('checkbox', { name: /Inicio de pausa/ }).check();
    await page.getByRole('checkbox', { name: /Fin de pausa/ }).check();
    await page.getByLabel('Motivo (obligatorio)').fill('No hice pausa: pulsé por error');
    await page.getByRole('button', { name: 'Enviar a la empresa' }).click();
    await page.getByRole('status').getByText('Corrección enviada').waitFor();
    const card = page.locator('article.correction').first();
    await expect.poll(() => card.textContent()).toContain('Espera la aprobación de la empresa');
    expect(await card.textContent()).toContain('Pedida por ti');
    await accessible();
    await shot('phone-correction-requested');
  });

  it('accepts a correction from the company, which then applies', async () => {
    const records = await http('GET', `/v1/check-ins?employee_id=${employeeId}`, undefined, liveKey);
    const clockIn = records.body.data.find((row: { type: string }) => row.type === 'in');
    const correction = await http(
      'POST',
      '/v1/check-in-corrections',
      {
        employee_id: employeeId,
        reason: 'La entrada fue presencial, no teletrabajo',
        void: [clockIn.id],
        add: [{ type: 'in', timestamp: clockIn.timestamp, work_mode: 'on_site' }],
      },
      liveKey,
    );
    expect(correction.status, correction.text).toBe(201);
    const approved = await http(
      'POST',
      `/v1/check-in-corrections/${correction.body.id}/approve`,
      {},
      liveKey,
    );
    expect(approved.body.status).toBe('pending');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Correcciones' }).waitFor();
    const card = page.locator('article.correction', { hasText: 'La entrada fue presencial' });
    await card.getByRole('button', { name: 'Aceptar' }).waitFor();
    await accessible();
    await shot('phone-correction-to-accept');
    await card.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => card.textContent()).toContain('Aplicada');
    const after = await http('GET', `/v1/check-in-corrections/${correction.body.id}`, undefined, liveKey);
    expect(after.body).toMatchObject({
      status: 'applied',
      employee_approval: { by: { type: 'employee', id: employeeId } },
    });

    // The company approves the worker's own request too; the day shows both corrections' marks.
    const mine = (
      await http(
        'GET',
        `/v1/check-in-corrections?employee_id=${employeeId}&status=pending`,
        undefined,
        liveKey,
      )
    ).body.data[0];
    expect((await http('POST', `/v1/check-in-corrections/${mine.id}/approve`, {}, liveKey)).body.status).toBe(
      'applied',
    );
    await tab('Mi registro');
    await page.locator('article.day').first().waitFor();
    await expect.poll(() => page.locator('article.day .records li.voided').count()).toBe(3);
    expect(await page.locator('article.day').first().textContent()).toContain('corrección');
    await shot('phone-record-corrected');
  });

  it('hands over a closed month, which the worker acknowledges', async () => {
    const today = new Date();
    const previous = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 15));
    const month = previous.toISOString().slice(0, 7);
    const closed = await http('POST', `/v1/registry/months/${month}/close`, {}, liveKey);
    expect(closed.status, closed.text).toBe(200);
    await tab('Mi registro');
    await page.getByLabel('Mes', { exact: true }).fill(month);
    const card = page.getByRole('region', { name: 'Mes cerrado por la empresa' });
    await card.waitFor();
    await accessible();
    await shot('phone-closed-month');
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'Descargar el documento (PDF)' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`registro-${month}.pdf`);
    await card.getByRole('button', { name: 'Confirmo que he recibido el resumen' }).click();
    await card
      .getByRole('status')
      .getByText(/^Recibido el/)
      .waitFor();
    const list = await http('GET', `/v1/registry/months/${month}/acknowledgements`, undefined, liveKey);
    expect(list.body.data).toEqual([
      {
        employee_id: employeeId,
        employee_name: 'Lucía Portal',
        acknowledged_at: expect.any(String),
        version: 1,
        acknowledged_version: 1,
      },
    ]);
    await page.getByLabel('Mes', { exact: true }).fill(new Date().toISOString().slice(0, 7));
  });

  it('shows the records someone else made for the worker, who rejects one with a reason and accepts another', async () => {
    // The company's integration (a key of kind `integration`) records two breaks for Lucía: not her own records.
    const minutesAgo = (minutes: number) =>
      `${new Date(Math.floor((Date.now() - minutes * 60_000) / 1000) * 1000).toISOString().slice(0, 19)}Z`;
    const made = [];
    for (const [type, minutes] of [
      ['break_start', 3],
      ['break_end', 2],
    ] as const) {
      const response = await http(
        'POST',
        '/v1/check-ins',
        { employee_id: employeeId, type, timestamp: minutesAgo(minutes) },
        liveKey,
      );
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({
        worker_confirmed: false,
        recorded_by: { key_kind: 'integration' },
      });
      made.push(response.body.id as string);
    }
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Mi registro' }).waitFor();
    const card = page.getByRole('region', { name: 'Registros hechos por otra persona' });
    await card.waitFor();
    await expect.poll(() => card.getByRole('listitem').count()).toBe(2);
    expect(await card.textContent()).toContain('la empresa, desde otro sistema');
    await accessible();
    await shot('phone-records-by-others');

    const first = card.getByRole('listitem').first();
    await first.getByRole('button', { name: 'Rechazar' }).click();
    await first.getByLabel('Por qué no es correcto').fill('No hice esa pausa.');
    await accessible();
    await first.getByRole('button', { name: 'Rechazar el registro' }).click();
    await card.getByRole('status').getByText('Respuesta guardada.').waitFor();
    await expect.poll(() => card.getByRole('listitem').count()).toBe(1);
    await card.getByRole('listitem').first().getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => card.getByRole('listitem').count()).toBe(0);
    await expect.poll(() => page.locator('article.day').first().textContent()).toContain('rechazado por ti');
    await expect.poll(() => page.locator('article.day').first().textContent()).toContain('aceptado por ti');
    await shot('phone-records-by-others-answered');

    // The company sees each answer on the check-in, and a sync with updated_since picks it up.
    const rejected = await http('GET', `/v1/check-ins/${made[0]}`, undefined, liveKey);
    expect(rejected.body.worker_response).toMatchObject({ status: 'rejected', reason: 'No hice esa pausa.' });
    const accepted = await http('GET', `/v1/check-ins/${made[1]}`, undefined, liveKey);
    expect(accepted.body.worker_response).toMatchObject({ status: 'accepted', reason: null });
  });

  it('speaks English on request, and keeps the choice', async () => {
    // One more record by the integration, to see its card in English too.
    const timestamp = `${new Date(Math.floor((Date.now() - 60_000) / 1000) * 1000).toISOString().slice(0, 19)}Z`;
    const made = await http(
      'POST',
      '/v1/check-ins',
      { employee_id: employeeId, type: 'out', timestamp },
      liveKey,
    );
    expect(made.status, made.text).toBe(201);
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { level: 1, name: 'My record' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My record' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await accessible();
    await shot('phone-record-english');
    const card = page.getByRole('region', { name: 'Records made by someone else' });
    await card.getByRole('button', { name: 'Accept' }).waitFor();
    expect(await card.textContent()).toContain('the company, from another system');
    await card.scrollIntoViewIfNeeded();
    await shot('phone-records-by-others-english');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByRole('status').getByText('Answer saved.').waitFor();
    await page.getByRole('button', { name: 'Cambiar a español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mi registro' }).waitFor();
  });

  it('shows “Mis turnos”: a published shift, with a badge until the worker has seen it (issue 38)', async () => {
    // Next Monday's night shift, planned and published by the company.
    const today = Temporal.Now.zonedDateTimeISO('Europe/Madrid').toPlainDate();
    const monday = today.add({ days: 8 - today.dayOfWeek }).toString();
    const planned = await http(
      'POST',
      '/v1/shifts',
      {
        employee_id: employeeId,
        date: monday,
        start: '22:00',
        end: '06:00',
        break_minutes: 30,
        status: 'published',
      },
      liveKey,
    );
    expect(planned.status, planned.text).toBe(201);
    const draft = await http(
      'POST',
      '/v1/shifts',
      { employee_id: employeeId, date: monday, start: '08:00', end: '12:00' },
      liveKey,
    );
    expect(draft.status, draft.text).toBe(201);
    await page.reload();
    const link = page.getByRole('link', { name: /^Mis turnos/ });
    await expect.poll(() => link.textContent()).toContain('1 turno nuevo o cambiado');
    await tab('Mis turnos');
    const shifts = page.locator('.shifts li');
    await expect.poll(() => shifts.count()).toBe(1);
    expect(await shifts.first().textContent()).toContain('de 22:00 a 06:00 (del día siguiente)');
    expect(await shifts.first().textContent()).toContain('7 h 30 min de trabajo');
    await page
      .getByRole('status')
      .getByText('Hay 1 turno nuevo o cambiado desde tu última visita.')
      .waitFor();
    // Seen: the badge is gone.
    await expect.poll(() => link.textContent()).toBe('Mis turnos');
    await accessible();
    await shot('phone-shifts');
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { level: 1, name: 'My shifts' }).waitFor();
    expect(await shifts.first().textContent()).toContain('22:00 to 06:00 (next day)');
    await accessible();
    await shot('phone-shifts-english');
    await page.getByRole('button', { name: 'Cambiar a español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis turnos' }).waitFor();
  });

  it('asks for time off in “Mis ausencias”, sees what it counts, then the refusal and its reason (issue 39)', async () => {
    // Monday to Wednesday of the week after next, in the worker's zone.
    const today = Temporal.Now.zonedDateTimeISO('Europe/Madrid').toPlainDate();
    const start = today.add({ days: 15 - today.dayOfWeek });
    const end = start.add({ days: 2 });
    await page.getByRole('link', { name: 'Ausencias' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis ausencias' }).waitFor();
    const balance = page.getByRole('heading', { name: /^Vacaciones de \d{4}$/ });
    await balance.waitFor();
    // Six tabs, every one whole on a phone (Spanish has the longest words).
    expect(await clippedTabs()).toEqual([]);
    const form = page.getByRole('form', { name: 'Pedir una ausencia' });
    await form.getByLabel('Desde').fill(start.toString());
    await form.getByLabel('Hasta (incluido)').fill(end.toString());
    await form.getByLabel('Nota para la empresa (opcional)').fill('Boda de mi hermana');
    // Before sending: what it counts and what is left.
    await form.getByText(/^Cuenta 3 días laborables\. Te quedarán [\d,]+ días de vacaciones\.$/).waitFor();
    await accessible();
    await shot('phone-absences-request');
    await form.getByRole('button', { name: 'Enviar la solicitud' }).click();
    await page
      .getByRole('status')
      .getByText(/^Solicitud enviada/)
      .waitFor();
    const item = page.locator('.records li').filter({ hasText: 'Boda de mi hermana' });
    await expect.poll(() => item.textContent()).toContain('Pendiente');
    const listed = await http(
      'GET',
      `/v1/absences?employee_id=${employeeId}&status=requested`,
      undefined,
      liveKey,
    );
    const asked = listed.body.data.find((row: { note: string }) => row.note === 'Boda de mi hermana');
    expect(asked).toMatchObject({ start_date: start.toString(), end_date: end.toString(), days_count: 3 });
    // The company refuses it with a reason; the worker reads it.
    const refused = await http(
      'POST',
      `/v1/absences/${asked.id}/reject`,
      { reason: 'Inventario anual esa semana' },
      liveKey,
    );
    expect(refused.status, refused.text).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Mis ausencias' }).waitFor();
    await expect
      .poll(() => item.textContent())
      .toContain('Denegada por la empresa: «Inventario anual esa semana»');
    await accessible();
    await shot('phone-absences');
    // The refusal is in the worker's notifications too: the bell counts it, the panel leads to it.
    const bell = page.getByRole('button', { name: /^Notificaciones \(\d+ sin leer\)$/ });
    const unread = Number((await bell.textContent())?.match(/\((\d+) sin leer/)?.[1]);
    expect(unread).toBeGreaterThan(0);
    await bell.click();
    const panel = page.getByRole('region', { name: 'Notificaciones' });
    await panel.getByText('Tu solicitud de Vacaciones está denegada').waitFor();
    expect(await panel.textContent()).toContain('Motivo: «Inventario anual esa semana».');
    await accessible();
    await shot('phone-inbox');
    await panel.getByRole('link', { name: /Tu solicitud de Vacaciones está denegada/ }).click();
    await page.getByRole('button', { name: `Notificaciones (${unread - 1} sin leer)` }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Mis ausencias' }).waitFor();
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { level: 1, name: 'My time off' }).waitFor();
    expect(await clippedTabs()).toEqual([]);
    await expect
      .poll(() => item.textContent())
      .toContain('Refused by the company: “Inventario anual esa semana”');
    await accessible();
    await shot('phone-absences-english');
    await page.getByRole('button', { name: 'Cambiar a español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis ausencias' }).waitFor();
  });

  it('lays out at desktop width too, and logs out to the login form', async () => {
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const wide = await desktop.newPage();
    await wide.goto(`${base}/portal`);
    await wide.getByLabel('Correo electrónico').fill('lucia.portal@example.com');
    await wide.getByLabel('Contraseña').fill(PASSWORD);
    await wide.getByRole('button', { name: 'Entrar', exact: true }).click();
    await wide.getByRole('heading', { level: 1, name: 'Hola, Lucía' }).waitFor();
    await accessible(wide);
    await shot('desktop-today', wide);
    await wide.getByRole('link', { name: 'Correcciones' }).click();
    await wide.getByRole('heading', { level: 1, name: 'Correcciones' }).waitFor();
    await shot('desktop-corrections', wide);
    await wide.getByRole('link', { name: 'Ausencias' }).click();
    await wide.getByRole('heading', { level: 1, name: 'Mis ausencias' }).waitFor();
    await accessible(wide);
    await shot('desktop-absences', wide);
    await wide.getByRole('button', { name: 'Cerrar sesión' }).click();
    await wide.getByRole('heading', { name: 'Entrar' }).waitFor();
    await desktop.close();
  });

  it('tells the worker, on the first screen, that the company reset their access (issue 35)', async () => {
    const reset = await http('POST', `/v1/employees/${employeeId}/portal-invitation`, {}, liveKey);
    expect(reset.status, reset.text).toBe(201);
    expect(reset.body.kind).toBe('reset');
    // The worker's session ended with the reset: the portal asks for a login again.
    await page.goto(`${base}/portal`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.goto(reset.body.url);
    await page.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await page.getByLabel('Repite la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hola, Lucía' }).waitFor();
    const notice = page.getByRole('note');
    expect(await notice.textContent()).toMatch(
      /^Tu empresa restableció tu acceso al portal el .+\. Tus sesiones se cerraron/,
    );
    await accessible();
    await shot('phone-access-reset');
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect.poll(() => notice.textContent()).toMatch(/^Your company reset your portal access on /);
    await accessible();
    await shot('phone-access-reset-english');
    await page.getByRole('button', { name: 'Cambiar a español' }).click();
  });
  it('shows a shift left open as a probable missed clock-out, with its correction and a normal clock-in (issue 38)', async () => {
    // Another company's worker clocked in 17 hours ago (by the company's system) and never clocked out.
    const other = await companyWithInvitedWorker(http, 'Taller Luna', {
      first_name: 'Olvido',
      last_name: 'Salida',
      email: 'olvido.salida@example.com',
      hire_date: '2026-01-01',
    });
    const opened = new Date(Math.floor((Date.now() - 17 * 3_600_000) / 60_000) * 60_000);
    const clockedIn = await http(
      'POST',
      '/v1/check-ins',
      { employee_id: other.employeeId, type: 'in', timestamp: opened.toISOString().replace('.000', '') },
      other.liveKey,
    );
    expect(clockedIn.status, clockedIn.text).toBe(201);
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const worker = await phone.newPage();
    worker.setDefaultTimeout(10_000);
    await worker.goto(other.invitation);
    await worker.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await worker.getByLabel('Repite la contraseña').fill(PASSWORD);
    await worker.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await worker.getByRole('heading', { level: 1, name: 'Hola, Olvido' }).waitFor();
    const notice = worker.locator('.missed');
    await expect
      .poll(() => notice.textContent())
      .toMatch(/^Tienes una jornada abierta desde el .+ a las \d\d:\d\d/);
    // Not "working since": the day starts afresh with "Entrar"; no "Salir" that would be ignored.
    expect(await worker.locator('.status .state').textContent()).toBe('Fuera de la jornada');
    expect(await worker.getByRole('button', { name: 'Salir' }).count()).toBe(0);
    await accessible(worker);
    await shot('phone-missed-clock-out', worker);
    await worker.getByRole('button', { name: 'Switch to English' }).click();
    await expect.poll(() => notice.textContent()).toMatch(/^You have a shift open since /);
    await accessible(worker);
    await shot('phone-missed-clock-out-english', worker);
    await worker.getByRole('button', { name: 'Add the missing clock-out' }).click();
    await worker.getByRole('heading', { level: 1, name: 'Corrections' }).waitFor();
    const openedDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(opened);
    expect(await worker.getByLabel('Day').inputValue()).toBe(openedDate);
    await shot('phone-missed-clock-out-correction-english', worker);
    await phone.close();
  });
});
