/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser, so this file also sees the DOM types.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { es } from '../../web/shared/locales/es.ts';
import { axeViolations } from '../helpers/axe.ts';
import { launchChromium } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { ensureDashboardBuilt } from '../helpers/dashboard-build.ts';
import { dashboardKeys } from '../helpers/dashboard-keys.ts';
import { dashboardText, type Language, literally } from '../helpers/dashboard-text.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  startServiceNode,
  stopServiceNode,
} from '../helpers/service.ts';

/**
 * The dashboard in a real browser: Chromium (test/helpers/browser.ts) driven by playwright-core, against a real
 * `jornada serve` process (API and workers) over HTTP. Every job of an HR administrator runs four times: in
 * English and in Spanish, at 1440 px and at 390 px (a phone), each time for a company of its own. Screenshots
 * of every screen go to test-results/dashboard/ (`npm run screenshots` copies them to docs/screenshots/).
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/dashboard');

export type Variant = { key: string; language: Language; width: number; height: number };
export const VARIANTS: Variant[] = [
  { key: 'en-desktop', language: 'en', width: 1440, height: 900 },
  { key: 'en-phone', language: 'en', width: 390, height: 844 },
  { key: 'es-desktop', language: 'es', width: 1440, height: 900 },
  { key: 'es-phone', language: 'es', width: 390, height: 844 },
];
const phone = (variant: Variant) => variant.width < 720;

let database: TestDatabase;
let dataDir: string;
let node: ServiceNode;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let base = '';
let http: ReturnType<typeof httpClient>;

/**
 * Declares the dashboard's browser journeys for some of the variants (a file per language runs them in
 * parallel): one `jornada serve`, one Chromium, and each variant's company and jobs.
 */
export function dashboardJourneys(variants: Variant[]): void {
  keepFailures(() => page, SHOTS);
  beforeAll(async () => {
    await ensureDashboardBuilt();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-e2e-dashboard-'));
    receiver = await startReceiver();
    receiver.respond = () => 204;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    node = await startServiceNode(database.url, 'all', {
      port,
      env: {
        JORNADA_DATA_DIR: dataDir,
        JORNADA_PUBLIC_URL: base,
        JORNADA_FAKE_CLOCK: '0',
        JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1',
      },
    });
    http = httpClient(base);
    await mkdir(SHOTS, { recursive: true });
    browser = await launchChromium();
    const context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1440, height: 900 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (node) await stopServiceNode(node);
    await receiver?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A company of its own for one variant: an administrator, a live key, an employee with a shift today and a request. */
  async function setUpCompany(variant: Variant) {
    const login = { email: `hr.admin.${variant.key}@example.com`, password: 'a long dashboard password' };
    const company = await http(
      'POST',
      '/admin/v1/companies',
      { name: `Browser Co ${variant.key}` },
      E2E_ADMIN_TOKEN,
    );
    expect(company.status).toBe(201);
    const admin = await http('POST', `/admin/v1/companies/${company.body.id}/admins`, login, E2E_ADMIN_TOKEN);
    expect(admin.status, admin.text).toBe(201);
    const liveKey = (
      await http(
        'POST',
        `/admin/v1/companies/${company.body.id}/api-keys`,
        {
          mode: 'live',
          scopes: [
            'org:empleados:write',
            'org:ausencias:write',
            'org:ausencias:read',
            'org:fichajes:write',
            'org:turnos:write',
            'org:turnos:read',
            'org:nomina:write',
          ],
        },
        E2E_ADMIN_TOKEN,
      )
    ).body.secret as string;
    const employee = await http(
      'POST',
      '/v1/employees',
      { first_name: 'Lucía', last_name: 'Browser', email: 'lucia@example.com', hire_date: '2026-01-01' },
      liveKey,
    );
    expect(employee.status, employee.text).toBe(201);
    // A shift on today's date in the company's zone (the screens default to it) that is never in the future,
    // whatever the hour the test runs at: from up to 4 hours ago (not before the local midnight) to 3 minutes ahead
    // (within the 5-minute skew), and not past the local day's end.
    const now = Date.now();
    const localToday = Temporal.Now.zonedDateTimeISO('Europe/Madrid').toPlainDate();
    const dayStart = localToday.toZonedDateTime({ timeZone: 'Europe/Madrid' }).epochMilliseconds;
    const dayEnd = localToday
      .add({ days: 1 })
      .toZonedDateTime({ timeZone: 'Europe/Madrid' }).epochMilliseconds;
    const shift = {
      in: Math.max(dayStart, now - 4 * 3_600_000),
      out: Math.min(dayEnd - 1_000, now + 3 * 60_000),
    };
    for (const type of ['in', 'out'] as const) {
      const timestamp = `${new Date(shift[type]).toISOString().slice(0, 19)}Z`;
      const created = await http(
        'POST',
        '/v1/check-ins',
        { employee_id: employee.body.id, type, timestamp },
        liveKey,
      );
      expect(created.status, created.text).toBe(201);
    }
    // Another worker clocked in at least 17 hours ago, and before today (so that today's export holds the first
    // worker's shift alone, whatever the hour the suite runs at), and never clocked out: the home page's probable
    // missed clock-out.
    const forgetful = await http(
      'POST',
      '/v1/employees',
      { first_name: 'Olvido', last_name: 'Salida', email: 'olvido@example.com', hire_date: '2026-11-01' },
      liveKey,
    );
    expect(forgetful.status, forgetful.text).toBe(201);
    const opened = await http(
      'POST',
      '/v1/check-ins',
      {
        employee_id: forgetful.body.id,
        type: 'in',
        timestamp: `${new Date(Math.min(now - 17 * 3_600_000, dayStart - 3_600_000)).toISOString().slice(0, 19)}Z`,
      },
      liveKey,
    );
    expect(opened.status, opened.text).toBe(201);
    // A worker who worked eleven and a half hours two days ago: legal-limit alerts, which the administrator is told.
    const tired = await http(
      'POST',
      '/v1/employees',
      // Hired two days ago: no closed month of the journeys counts them.
      {
        first_name: 'Largo',
        last_name: 'Turno',
        email: 'largo@example.com',
        hire_date: localToday.subtract({ days: 2 }).toString(),
      },
      liveKey,
    );
    expect(tired.status, tired.text).toBe(201);
    for (const [type, time] of [
      ['in', '06:00'],
      ['out', '17:30'],
    ] as const) {
      const at = localToday
        .subtract({ days: 2 })
        .toZonedDateTime({ timeZone: 'Europe/Madrid', plainTime: Temporal.PlainTime.from(time) })
        .toInstant()
        .toString();
      const made = await http(
        'POST',
        '/v1/check-ins',
        { employee_id: tired.body.id, type, timestamp: at },
        liveKey,
      );
      expect(made.status, made.text).toBe(201);
    }
    // A shift template for the planner.
    const template = await http(
      'POST',
      '/v1/shift-templates',
      { name: 'Mañana', start: '06:00', end: '14:00', break_minutes: 30 },
      liveKey,
    );
    expect(template.status, template.text).toBe(201);
    // A unit nobody belongs to yet, for the planner's filter.
    const unit = await http(
      'POST',
      `/admin/v1/companies/${company.body.id}/units`,
      { name: 'Cocina' },
      E2E_ADMIN_TOKEN,
    );
    expect(unit.status, unit.text).toBe(201);
    const absence = await http(
      'POST',
      '/v1/absences',
      { employee_id: employee.body.id, type: 'vacation', start_date: '2026-12-21', end_date: '2026-12-23' },
      liveKey,
    );
    expect(absence.status, absence.text).toBe(201);
    return {
      login,
      liveKey,
      companyId: company.body.id as string,
      employeeId: employee.body.id as string,
      absenceId: absence.body.id as string,
      // The day the set-up's records were made for, in the company's zone.
      today: localToday.toString(),
    };
  }

  /** What sticks out of the screen's width (none: every action reachable without sideways scrolling). */
  const overflowing = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          // Inside a box that scrolls (a month grid) is fine; the page itself must not.
          return box.right > window.innerWidth + 0.5 && !element.closest('.table-wrap') && box.width > 0;
        })
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`,
        ),
    );

  /**
   * Texts left in English on a Spanish screen: any text node, label, title or placeholder that is exactly one of
   * the dashboard's English texts whose Spanish differs.
   */
  const ENGLISH = [...dashboardKeys().keys()].filter((key) => es[key] !== undefined && es[key] !== key);
  const untranslated = () =>
    page.evaluate((keys) => {
      const known = new Set(keys);
      const found = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        if (known.has(text)) found.add(text);
      }
      for (const element of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
        for (const name of ['aria-label', 'title', 'placeholder']) {
          const text = element.getAttribute(name)?.trim() ?? '';
          if (known.has(text)) found.add(`${name}: ${text}`);
        }
      }
      return [...found];
    }, ENGLISH);

  const callV1 = (secret: string) =>
    page.evaluate(async (key) => {
      const response = await fetch('/v1/organization', { headers: { authorization: `Bearer ${key}` } });
      return { status: response.status, body: await response.json() };
    }, secret);

  describe.each(variants)('the dashboard in Chromium, $key', (variant) => {
    const { T, prefix, date, month, field, detail } = dashboardText(variant.language);
    const employeeName = 'Lucía Browser';
    let login: { email: string; password: string };
    let liveKey = '';
    let companyId = '';
    let employeeId = '';
    let absenceId = '';
    const shot = (name: string) =>
      page.screenshot({ path: path.join(SHOTS, `${variant.key}-job-${name}.png`), fullPage: true });
    /** The file behind a report's Download button (the report's row, or the page when there is one). */
    const downloadFrom = async (scope: Page | Locator) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        scope.getByRole('button', { name: T('Download') }).click(),
      ]);
      return download;
    };
    const open = async (screen: string, heading: string) => {
      // The shell first (after a reload the session loads before the menu exists: its button was not there yet
      // to be seen, and the folded link never appeared).
      await page.getByRole('navigation', { name: T('Screens') }).waitFor();
      // At phone width the screens are behind the menu button.
      const menu = page.getByRole('button', { name: T('Menu') });
      if (await menu.isVisible()) {
        await menu.click();
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
      }
      await page
        .getByRole('navigation', { name: T('Screens') })
        .getByRole('link', { name: heading, exact: true })
        .click();
      await expect.poll(() => page.url()).toContain(`#/${screen}`);
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      // Let the screen's lists load before acting: a list that arrives after Playwright has aimed a
      // click moves the page under it, and the click lands on something else.
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: T('Loading…') })
            .count(),
        )
        .toBe(0);
    };
    /** On a phone the account's controls (data mode, language, log out) fold behind "Account": unfolds them. */
    const account = async () => {
      // By its place, not its name: before an English reader's switch the page still speaks Spanish.
      const toggle = page.locator('.account-toggle');
      if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') {
        await toggle.click();
      }
    };
    const setMode = async (mode: 'Live' | 'Test (sandbox)') => {
      await account();
      await page.getByLabel(T(mode), { exact: true }).check();
    };
    // Today, and its month and year, in the company's zone (Madrid), as the screens default to them: the day the
    // set-up made its records for (read when the file was loaded, it was the day before when a run crossed
    // midnight in Madrid, and the export of "today" missed the shift).
    let today = '';

    beforeAll(async () => {
      ({ login, liveKey, companyId, employeeId, absenceId, today } = await setUpCompany(variant));
      await page.context().clearCookies();
      await page.setViewportSize({ width: variant.width, height: variant.height });
    }, 60_000);

    it('refuses a wrong password, then logs in with the keyboard', async () => {
      // The login page speaks the language last used in this browser.
      await page.goto(`${base}/dashboard`);
      await page.evaluate(
        (language) => localStorage.setItem('jornada.dashboard.lang', language),
        variant.language,
      );
      await page.reload();
      await page.getByLabel(T('Email'), { exact: true }).fill(login.email);
      await page.getByLabel(T('Password'), { exact: true }).fill('not the password');
      await page.getByRole('button', { name: T('Log in'), exact: true }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain(detail('The email or the password is wrong.'));
      await shot('login-error');

      await page.getByLabel(T('Password'), { exact: true }).fill('');
      await page.getByLabel(T('Email'), { exact: true }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.type(login.password);
      await page.keyboard.press('Enter');
      // A company in Spain: the dashboard speaks Spanish, whatever the language of the login page.
      await page.getByRole('heading', { level: 1, name: 'Hoy' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      if (variant.language === 'en') {
        // This administrator chooses English: kept on the server, for every later session.
        // The switch is immediate on screen; the choice is saved by a request of its own, awaited here.
        const saved = page.waitForResponse(
          (response) =>
            response.url().endsWith('/dashboard/api/me') && response.request().method() === 'PATCH',
        );
        await account();
        await page.getByRole('button', { name: 'Switch to English' }).click();
        await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
        expect((await saved).status()).toBe(200);
      }
      const me = await page.evaluate(async () => (await fetch('/dashboard/api/session')).json());
      expect(me).toMatchObject({
        language: variant.language,
        admin: { language: variant.language === 'en' ? 'en' : null },
      });
      // The home page: today at a glance.
      await page.getByRole('heading', { name: T('Problem days, last 14 days') }).waitFor();
      expect(await page.locator('main').textContent()).toContain(employeeName);
      const missed = page.getByRole('region', { name: T('Probable missed clock-out') });
      expect(await missed.textContent()).toContain('Olvido Salida');
      expect(await axeViolations(page)).toEqual([]);
      await shot('home');
      const cookies = await page.context().cookies();
      const session = cookies.find((cookie) => cookie.name === 'jornada_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
      // The cookie is out of the page's reach.
      expect(await page.evaluate(() => document.cookie)).toBe('');
    });

    it('creates a test key, uses it against /v1/organization, revokes it and gets 401', async () => {
      await open('keys', T('API keys'));
      // Nothing chosen: every problem is listed, none hidden, and each field says its own.
      await page.getByLabel(T('Name'), { exact: true }).fill('x'.repeat(100));
      await page.getByRole('button', { name: T('Create key') }).click();
      const scopes = field(T('Scopes'), 'needs at least 1 item');
      await expect.poll(() => page.getByRole('alert').textContent()).toContain(scopes);
      expect(await page.getByRole('alert').textContent()).toContain(
        T('Check these {{count}} fields:', { count: 1 }),
      );
      expect(await page.locator('#scopes-error').textContent()).toBe(scopes);
      expect(await page.getByRole('alert').textContent()).not.toMatch(/must NOT|more\)/);
      await shot('keys-field-error');
      await page.getByLabel(T('Name'), { exact: true }).fill('');
      await setMode('Test (sandbox)');
      await page
        .getByRole('note')
        .filter({ hasText: T('Test mode: you are working on the sandbox. Nothing here touches live data.') })
        .waitFor();
      await page.getByLabel(T('Name'), { exact: true }).fill('Browser test key');
      await page.getByLabel('org:empleados:read').check();
      await page.getByLabel('org:fichajes:read').check();
      // A clocking terminal (issue 34): its punches made at the moment are the worker's own records.
      await page.getByRole('radio', { name: new RegExp(`^${T('Clocking terminal')}`) }).check();
      await page.getByRole('button', { name: T('Create key') }).click();
      const secret = (await page.getByTestId('secret').textContent()) ?? '';
      await page
        .getByRole('cell', { name: T('Clocking terminal'), exact: true })
        .first()
        .waitFor();
      expect(secret).toMatch(/^jrn_test_[0-9A-Za-z]{43}$/);
      await page.getByRole('button', { name: T('Copy'), exact: true }).waitFor();
      await shot('api-keys-secret');

      const used = await callV1(secret);
      expect(used.status).toBe(200);
      expect(used.body).toMatchObject({ sandbox: true, mode: 'test' });
      // The sandbox's request log shows it, with its request id.
      const log = page.getByRole('region', { name: T('Recent requests of the test keys') });
      await expect
        .poll(async () => {
          await log.getByRole('button', { name: T('Refresh') }).click();
          return await log.textContent();
        })
        .toContain('GET /v1/organization');

      await page.getByRole('button', { name: T('I have stored it') }).click();
      await page.getByRole('button', { name: T('Revoke {{name}}', { name: 'Browser test key' }) }).click();
      const dialog = page.getByRole('dialog', { name: T('Revoke this key?') });
      await dialog.waitFor();
      await shot('api-keys-revoke-confirm');
      await dialog.getByRole('button', { name: T('Revoke'), exact: true }).click();
      await page.getByRole('cell', { name: `${T('revoked')} (revoked_by_dashboard)` }).waitFor();
      await shot('api-keys');
      expect((await callV1(secret)).status).toBe(401);
    });

    it('approves an absence from the team calendar after seeing the balance and who else is off', async () => {
      await setMode('Live');
      await open('absences', T('Team calendar'));
      const requests = page.getByRole('region', { name: T('Requests ({{number}})', { number: 1 }) });
      const approve = requests.getByRole('button', { name: T('Approve {{who}}', { who: employeeName }) });
      await approve.waitFor();
      // The whole month at 1440 px, without scrolling sideways; weekends shaded (issue 39).
      const grid = page.locator('table.calendar');
      if (!phone(variant)) {
        expect(
          await grid.evaluate((table) => {
            const box = table.closest('.table-wrap') as HTMLElement | null;
            return box === null || box.scrollWidth <= box.clientWidth;
          }),
        ).toBe(true);
        const last = await grid.locator('thead th').last().boundingBox();
        expect((last?.x ?? 0) + (last?.width ?? 0)).toBeLessThanOrEqual(variant.width);
      }
      expect(await grid.locator('thead th.weekend, thead th.cell-holiday').count()).toBeGreaterThanOrEqual(8);
      expect(await axeViolations(page)).toEqual([]);
      await shot('team-calendar');
      await approve.click();
      const dialog = page.getByRole('dialog', {
        name: T('Approve {{who}}’s {{type}}?', { who: employeeName, type: 'vacaciones' }),
      });
      await dialog.getByText(T('Left after approval')).waitFor();
      expect(await dialog.textContent()).toContain(T('Nobody else.'));
      expect(await dialog.textContent()).toMatch(
        new RegExp(
          `${literally(T('Taken after approval'))}\\s*${literally(T('{{count}} days', { count: 3 }))}`,
        ),
      );
      await shot('team-calendar-approve');
      await dialog.getByRole('button', { name: T('Approve'), exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${T('Approved')}: ${employeeName}` })
        .waitFor();
      const approved = await http('GET', '/v1/absences?status=approved', undefined, liveKey);
      expect(approved.status).toBe(200);
      expect(approved.body.data.map((absence: { id: string }) => absence.id)).toContain(absenceId);
      // The calendar of December shows it, day by day.
      await page.getByLabel(T('Month'), { exact: true }).fill('2026-12');
      const calendar = page.getByRole('region', {
        name: T('Team calendar, {{month}}', { month: month('2026-12') }),
      });
      // The company is in Madrid: its built-in types are labelled in Spanish, whichever language its reader chose.
      await expect.poll(() => calendar.getByText(`Vacaciones, ${T('approved')}`).count()).toBe(3);
    });

    it('asks for an explicit “approve anyway”, with the figure, to approve vacation beyond the balance', async () => {
      // Six weeks of vacation in 2027: thirty working days, more than the year's entitlement.
      const long = await http(
        'POST',
        '/v1/absences',
        { employee_id: employeeId, type: 'vacation', start_date: '2027-02-01', end_date: '2027-03-12' },
        liveKey,
      );
      expect(long.status, long.text).toBe(201);
      await page.reload();
      await open('absences', T('Team calendar'));
      const requests = page.getByRole('region', { name: T('Requests ({{number}})', { number: 1 }) });
      await requests.getByRole('button', { name: T('Approve {{who}}', { who: employeeName }) }).click();
      const dialog = page.getByRole('dialog', {
        name: T('Approve {{who}}’s {{type}}?', { who: employeeName, type: 'vacaciones' }),
      });
      const warning = dialog.getByRole('alert');
      await warning.waitFor();
      const days = (await warning.textContent())?.match(/−?-?\d+/)?.[0] ?? '';
      expect(Number(days.replace('−', '-'))).toBeLessThan(0);
      // No plain "Approve": the button says what it does.
      expect(await dialog.getByRole('button', { name: T('Approve'), exact: true }).count()).toBe(0);
      const anyway = dialog.getByRole('button', {
        name: T('Approve anyway: {{days}} days left', { days }),
        exact: true,
      });
      expect(await anyway.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot('team-calendar-over-balance');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // Refused instead, so that the journeys after this one find the requests as they were.
      const refused = await http(
        'POST',
        `/v1/absences/${long.body.id}/reject`,
        { reason: 'Demasiados días' },
        liveKey,
      );
      expect(refused.status, refused.text).toBe(200);
    });

    it('creates, rejects with a reason, and cancels absences for an employee', async () => {
      await open('absences', T('Team calendar'));
      await page.getByLabel(T('Month'), { exact: true }).fill('2026-11');
      const form = page.getByRole('form', { name: T('Create an absence') });
      await form.getByLabel(T('Employee'), { exact: true }).selectOption({ label: employeeName });
      await form.getByLabel(T('Type'), { exact: true }).selectOption('sick_leave');
      await form.getByLabel(T('From'), { exact: true }).fill('2026-11-30');
      await form.getByLabel(T('To'), { exact: true }).fill('2026-11-30');
      await form.getByRole('button', { name: T('Create absence') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Created and approved') })
        .waitFor();
      // Cancelled from the month's approved list.
      const cancel = T('Cancel {{who}}’s {{type}} from {{date}}', {
        who: employeeName,
        type: 'baja por enfermedad',
        date: date('2026-11-30'),
      });
      await page.getByRole('button', { name: cancel }).click();
      await page
        .getByRole('dialog', {
          name: T('Cancel {{who}}’s {{type}}?', { who: employeeName, type: 'baja por enfermedad' }),
        })
        .getByRole('button', { name: T('Cancel the absence') })
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: `${T('Cancelled')}: ${employeeName}, Baja por enfermedad, ${date('2026-11-30')}` })
        .waitFor();
      const cancelled = await http('GET', '/v1/absences?status=cancelled', undefined, liveKey);
      expect(cancelled.body.data.map((absence: { start_date: string }) => absence.start_date)).toEqual([
        '2026-11-30',
      ]);
      await expect.poll(() => page.getByRole('button', { name: cancel }).count()).toBe(0);
      // A request, rejected with a reason the employee will read.
      await form.getByLabel(T('Type'), { exact: true }).selectOption('vacation');
      await form.getByLabel(T('From'), { exact: true }).fill('2027-01-11');
      await form.getByLabel(T('To'), { exact: true }).fill('2027-01-12');
      await form.getByLabel(T('Approve at once')).uncheck();
      await form.getByRole('button', { name: T('Create absence') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${T('Requested')}: ` })
        .waitFor();
      await page.getByRole('button', { name: T('Reject {{who}}', { who: employeeName }) }).click();
      const reject = page.getByRole('dialog', {
        name: T('Reject {{who}}’s request?', { who: employeeName }),
      });
      await reject.getByLabel(T('Reason (shown to the employee)')).fill('Cierre de inventario esos días');
      await reject.getByRole('button', { name: T('Reject'), exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${T('Rejected')}: ${employeeName}` })
        .waitFor();
      const denied = await http('GET', '/v1/absences?status=denied', undefined, liveKey);
      expect(denied.body.data.map((absence: { denial_reason: string }) => absence.denial_reason)).toContain(
        'Cierre de inventario esos días',
      );
      expect(await axeViolations(page)).toEqual([]);
    });

    it('creates a webhook endpoint, sends a ping and sees its delivery succeed', async () => {
      await open('webhooks', T('Webhooks'));
      await page.getByLabel(T('URL'), { exact: true }).fill(`${receiver.url}/hooks/${variant.key}`);
      await page.getByLabel(T('Description'), { exact: true }).fill('Payroll receiver');
      await page.getByLabel('employee.created').check();
      await page.getByRole('button', { name: T('Create endpoint') }).click();
      expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: T('Send test ping') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Test ping queued. It appears in the deliveries below.') })
        .waitFor();
      await expect
        .poll(() => receiver.requests.filter((request) => request.path === `/hooks/${variant.key}`).length)
        .toBe(1);
      const ping = receiver.requests.find((request) => request.path === `/hooks/${variant.key}`);
      expect(JSON.parse(ping?.body ?? '{}').type).toBe('ping');
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: T('Refresh') }).click();
            return await page.getByRole('region', { name: T('Deliveries') }).textContent();
          },
          { timeout: 15_000 },
        )
        .toMatch(new RegExp(`ping.*${literally(T('succeeded'))}.*204`));
      // What the delivery sent and got back, as the receiver saw it.
      await page
        .getByRole('button', { name: T('Details') })
        .first()
        .click();
      const exchange = page.getByRole('region', { name: T('Request and response') });
      await exchange.getByText('HTTP 204').waitFor();
      expect(await exchange.textContent()).toContain(`webhook-id: ${JSON.parse(ping?.body ?? '{}').id}`);
      expect(await exchange.textContent()).toContain('webhook-signature: v1,');
      await shot('webhooks');
    });

    it('requests a check-in export, sees it complete, and downloads the file', async () => {
      await open('reports', T('Reports'));
      await page.getByLabel(T('Report'), { exact: true }).selectOption('check_ins_export');
      // The shift's day in the company's zone, where the export's dates are read.
      const day = today;
      await page.getByLabel(T('From'), { exact: true }).fill(day);
      await page.getByLabel(T('To'), { exact: true }).fill(day);
      await page.getByRole('button', { name: T('Request report') }).click();
      // Generation runs in a report process of its own; on a loaded machine (two dashboards, other end-to-end
      // tests) its first start takes longer than 20 s, so the wait is a minute: it must complete, not be fast (the
      // bench measures the speed).
      await page.getByRole('cell', { name: T('completed'), exact: true }).waitFor({ timeout: 60_000 });
      await shot('reports');
      const download = await downloadFrom(page);
      // A company in Spain gets its files as Spanish Excel opens them (issue 39): Spanish headers and name, `;`.
      expect(download.suggestedFilename()).toBe(`fichajes-${day}_${day}.csv`);
      const file = await download.path();
      const text = await readFile(file, 'utf8');
      expect(text.startsWith('\uFEFFid_fichaje;id_empleado;')).toBe(true);
      const rows = parse(text, { bom: true, columns: true, delimiter: ';' }) as Array<Record<string, string>>;
      expect(rows.map((row) => row.tipo)).toEqual(['in', 'out']);
      expect(rows.map((row) => row.tardío)).toEqual(['no', 'no']);
    }, 120_000);

    it('lists, searches, creates and terminates employees', async () => {
      await open('employees', T('Employees'));
      await page.getByRole('button', { name: T('New employee') }).click();
      const form = page.getByRole('form', { name: T('Create employee') });
      await form.getByLabel(T('First name'), { exact: true }).fill('Mateo');
      await form.getByLabel(T('Last name'), { exact: true }).fill('Nuevo');
      await form.getByLabel(T('Email'), { exact: true }).fill('mateo@example.com');
      await form.getByRole('button', { name: T('Create employee') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Created {{name}}.', { name: 'Mateo Nuevo' }) })
        .waitFor();
      await page.getByLabel(T('Search'), { exact: true }).fill('nuevo');
      await page.getByRole('button', { name: T('Search'), exact: true }).click();
      await expect.poll(() => page.getByRole('row').count()).toBe(2);
      await page.getByRole('button', { name: T('Edit {{name}}', { name: 'Mateo Nuevo' }) }).click();
      // The workers' portal invitation: a link to give the employee (no mail server here), which opens the portal.
      await page.getByRole('button', { name: T('Invite to the workers’ portal') }).click();
      const link = await page.getByTestId('secret').textContent();
      expect(link).toMatch(new RegExp(`^${base}/portal/invitation\\?token=[\\w-]{43}$`));
      await shot('employee-portal-invitation');
      await page.getByRole('button', { name: T('I have stored it') }).click();
      const portal = await page.context().newPage();
      await portal.goto(link as string);
      await portal.getByRole('heading', { name: 'Crea tu contraseña' }).waitFor();
      await portal.close();
      await page.getByRole('button', { name: T('Terminate'), exact: true }).click();
      await page
        .getByRole('dialog')
        .getByText(
          T(
            'Absence days after that day stop counting: vacation planned after it goes back to the balance, to be settled.',
          ),
        )
        .waitFor();
      await shot('employee-terminate');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: T('Terminate'), exact: true })
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Terminated {{name}}.', { name: 'Mateo Nuevo' }) })
        .waitFor();
      await shot('employees');
      // A readable error from the API: an email already taken in this company, named by its field.
      await page.getByRole('button', { name: T('New employee') }).click();
      await form.getByLabel(T('First name'), { exact: true }).fill('Dup');
      await form.getByLabel(T('Last name'), { exact: true }).fill('Licate');
      await form.getByLabel(T('Email'), { exact: true }).fill('mateo@example.com');
      await form.getByRole('button', { name: T('Create employee') }).click();
      await expect
        .poll(() => form.locator('.field-error').textContent())
        .toBe(field(T('Email'), 'is already used by another employee of this company'));
      await shot('employees-error');
    });

    it("shows an employee's check-ins and workday figures for a day, and corrects them with a reason", async () => {
      await open('check-ins', T('Time records'));
      await page.getByRole('button', { name: employeeName }).click();
      const day = page.getByRole('region', {
        name: new RegExp(
          `^${literally(prefix('Check-ins of {{name}} on {{date}}', { name: employeeName }, 'date'))}`,
        ),
      });
      await expect.poll(() => day.getByRole('row').count()).toBe(3);
      await expect.poll(() => day.textContent()).toContain(T('Worked'));
      await shot('check-ins');
      // Void the in through a correction: a dialog asks for the reason the registry keeps.
      const inAt = prefix('{{type}} at {{time}}', { type: T('In').toLowerCase() }, 'time');
      await day
        .getByRole('button', { name: new RegExp(`^${literally(T('Void {{what}}', { what: inAt }))}`) })
        .click();
      const dialog = page.getByRole('dialog', {
        name: new RegExp(`^${literally(prefix('Void the {{what}}?', {}, 'what'))}${literally(inAt)}`),
      });
      await dialog.getByLabel(T('Reason (kept in the registry)')).fill('Fichaje duplicado por error');
      await dialog.getByRole('button', { name: T('Request the correction') }).click();
      const requested = T(
        'Correction requested. It applies once the worker accepts it in the portal; until then it waits in the corrections below.',
      );
      await day.getByRole('status').filter({ hasText: requested }).first().waitFor();
      // Add a missing break in the day, also through a correction.
      const add = page.getByRole('form', { name: T('Record a missing check-in') });
      await add.getByLabel(T('Type'), { exact: true }).selectOption('break_start');
      await add.getByLabel(new RegExp(`^${literally(prefix('Time ({{zone}})', {}, 'zone'))}`)).fill('00:00');
      await add.getByLabel(T('Reason (kept in the registry)')).fill('Olvidó fichar la pausa');
      await add.getByRole('button', { name: T('Request the correction') }).click();
      await add.getByRole('status').waitFor();
      const queue = page.getByRole('region', { name: T('Corrections waiting'), exact: true });
      await expect.poll(() => queue.getByRole('row').count()).toBe(3);
      expect(await queue.textContent()).toContain('Fichaje duplicado por error');
      expect(await queue.textContent()).toContain(T('to accept in the portal'));
      expect(await axeViolations(page)).toEqual([]);
      await shot('time-records-corrections');
      // Asked by the company in the dashboard, both carry its approval (issue 39): nothing to approve, they wait
      // for the worker. The company withdraws one, with a reason.
      const voidRow = queue.getByRole('row').filter({ hasText: 'Fichaje duplicado por error' });
      const breakRow = queue.getByRole('row').filter({ hasText: 'Olvidó fichar la pausa' });
      await expect.poll(() => voidRow.textContent()).toContain(T('approved'));
      expect(
        await queue
          .getByRole('button', { name: T('Approve {{who}}’s correction', { who: employeeName }) })
          .count(),
      ).toBe(0);
      await breakRow
        .getByRole('button', { name: T('Reject {{who}}’s correction', { who: employeeName }) })
        .click();
      // The open dialog is the one of that row.
      const reject = page.locator('dialog[open]');
      await reject
        .getByLabel(T('Reason (shown to the worker, kept in the registry)'))
        .fill('No hubo pausa ese día');
      await reject.getByRole('button', { name: T('Reject'), exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Rejected: {{who}}’s correction.', { who: employeeName }) })
        .waitFor();
      // Read back through the dashboard's session: one waits for the worker with the company's approval, one is
      // rejected with its reason.
      const corrections = await page.evaluate(async () => {
        const response = await fetch('/dashboard/api/live/check-in-corrections');
        return (await response.json()).data as Array<{
          status: string;
          company_approval: unknown;
          rejection: { reason: string } | null;
        }>;
      });
      expect(corrections.map((row) => row.status).sort()).toEqual(['pending', 'rejected']);
      expect(corrections.find((row) => row.status === 'pending')?.company_approval).not.toBeNull();
      expect(corrections.find((row) => row.status === 'rejected')?.rejection?.reason).toBe(
        'No hubo pausa ese día',
      );
    });

    it('keeps the legal identity, the work centres and the workers’ identity numbers', async () => {
      const centre = await http(
        'POST',
        `/admin/v1/companies/${companyId}/locations`,
        { name: 'Obrador' },
        E2E_ADMIN_TOKEN,
      );
      expect(centre.status, centre.text).toBe(201);
      await open('settings', T('Settings'));
      const identity = page.getByRole('form', { name: T('Legal identity') });
      await identity.getByLabel(T('Legal name'), { exact: true }).fill('Panadería Sol, S.L.');
      // A tax id with a wrong control character is refused with the field named.
      const taxId = identity.getByLabel(T('Tax id (CIF/NIF)'), { exact: true });
      await taxId.fill('B12345675');
      await identity.getByRole('button', { name: T('Save legal identity') }).click();
      await expect
        .poll(() => identity.getByRole('alert').textContent())
        .toContain(T('Check these {{count}} fields:', { count: 1 }));
      // The field itself is marked, with its own message read with it.
      expect(await taxId.getAttribute('aria-invalid')).toBe('true');
      expect(await identity.locator('.field-error').textContent()).toBe(
        field(T('Tax id (CIF/NIF)'), 'is not a valid CIF or NIF (check its control character)'),
      );
      expect(await axeViolations(page)).toEqual([]);
      await shot('settings-field-error');
      await taxId.fill('b-12345674');
      await identity.getByRole('button', { name: T('Save legal identity') }).click();
      await identity
        .getByRole('status')
        .filter({ hasText: T('Saved.') })
        .waitFor();
      const account = await http('GET', `/admin/v1/companies/${companyId}`, undefined, E2E_ADMIN_TOKEN);
      expect(account.body).toMatchObject({ legal_name: 'Panadería Sol, S.L.', tax_id: 'B12345674' });
      await page.getByRole('button', { name: T('Edit {{name}}', { name: 'Obrador' }) }).click();
      const edit = page.getByRole('form', { name: T('Edit {{name}}', { name: 'Obrador' }) });
      await edit.getByLabel(T('Address'), { exact: true }).fill('Carrer de la Pau 12, València');
      await edit.getByLabel(T('CCC (código cuenta de cotización)')).fill('46123456752');
      await edit.getByRole('button', { name: T('Save {{name}}', { name: 'Obrador' }) }).click();
      await page.getByRole('cell', { name: '46123456752' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot('settings-identity');

      await open('employees', T('Employees'));
      await page.getByRole('button', { name: T('Edit {{name}}', { name: employeeName }) }).click();
      const form = page.getByRole('form', { name: T('Save employee') });
      await form.getByLabel(T('National id (NIF/NIE)'), { exact: true }).fill('12345678Z');
      await form.getByLabel(T('Social Security number (NAF)'), { exact: true }).fill('281234567840');
      await form.getByRole('button', { name: T('Save employee') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Saved {{name}}.', { name: employeeName }) })
        .waitFor();
      // Read back through the dashboard's own session API.
      const saved = await page.evaluate(async (id) => {
        const response = await fetch(`/dashboard/api/live/employees/${id}`);
        return response.json();
      }, employeeId);
      expect(saved).toMatchObject({ national_id: '12345678Z', social_security_number: '281234567840' });
      // The contract: Fridays of six hours from December on, part time (issue 38); the history keeps November's
      // week. A 38-hour week declared part time is 95 % of a 40-hour one.
      const contract = page.getByRole('form', { name: T('Schedule and vacation') });
      await contract.getByLabel(date('2024-01-05', { weekday: 'long' }), { exact: true }).fill('6');
      await contract.getByLabel(T('Contract'), { exact: true }).selectOption('part_time');
      await contract.getByLabel(T('Complementary hours limit (%)'), { exact: true }).waitFor();
      await contract.getByLabel(T('From'), { exact: true }).fill('2026-12-01');
      await contract.getByRole('button', { name: T('Save schedule and vacation') }).click();
      const history = page.getByRole('region', { name: T('Contract history'), exact: true });
      await expect.poll(() => history.getByRole('row').count()).toBe(3);
      expect(await history.textContent()).toContain(date('2026-11-30'));
      expect(await history.textContent()).toContain(`${date('2024-01-05', { weekday: 'short' })} 6 h`);
      expect(await history.textContent()).toContain(
        T('Part time, {{percentage}} %, {{hours}} a week', { percentage: '95', hours: '38 h' }),
      );
      const assignment = page.getByRole('form', { name: T('Assignment and registry') });
      await assignment.getByLabel(T('Work centre'), { exact: true }).selectOption({ label: 'Obrador' });
      // The same "Saved" status may still show from the save above: the request itself is awaited.
      const assigned = page.waitForResponse(
        (response) =>
          response.url().includes(`/employees/${employeeId}`) && response.request().method() === 'PATCH',
      );
      await assignment.getByRole('button', { name: T('Save assignment') }).click();
      expect((await assigned).status()).toBe(200);
      await page
        .getByRole('region', { name: T('Vacation {{year}}', { year: today.slice(0, 4) }) })
        .getByText(T('Left'), { exact: true })
        .waitFor();
      const updated = await page.evaluate(async (id) => {
        const response = await fetch(`/dashboard/api/live/employees/${id}`);
        return response.json();
      }, employeeId);
      expect(updated.work_schedule.fri).toBe(360);
      expect(updated).toMatchObject({
        contract_type: 'part_time',
        weekly_minutes: 2280,
        part_time_percentage: 95,
      });
      expect(updated.location_id).not.toBeNull();
      // The employee's own page: the month as a calendar, the banked balance chart, the year's absences.
      await page
        .getByRole('region', { name: T('Days of {{month}}', { month: month(today.slice(0, 7)) }) })
        .getByRole('columnheader', { name: date('2024-01-01', { weekday: 'short' }) })
        .waitFor();
      await page.getByRole('figure', { name: T('Banked hours at the end of each month') }).waitFor();
      await page
        .getByRole('region', { name: T('Absences of {{year}}', { year: today.slice(0, 4) }) })
        .getByRole('cell', { name: 'Vacaciones' })
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot('employee-contract');
    });

    it('keeps the company settings: recording, holidays by work centre, absence types and administrators', async () => {
      await open('settings', T('Settings'));
      const recording = page.getByRole('form', { name: T('Recording') });
      await recording.getByLabel(T('Late record after (hours)'), { exact: true }).fill('12');
      // Overtime paid from the first open day on (issue 38).
      await recording.getByLabel(T('Overtime'), { exact: true }).selectOption('paid');
      await recording.getByRole('button', { name: T('Save recording settings') }).click();
      await recording
        .getByRole('status')
        .filter({ hasText: T('Saved.') })
        .waitFor();
      const paying = await http('GET', `/admin/v1/companies/${companyId}`, undefined, E2E_ADMIN_TOKEN);
      expect(paying.body).toMatchObject({ late_record_hours: 12, overtime_compensation: 'paid' });
      const holidays = page.getByRole('region', { name: T('Holidays'), exact: true });
      const addHoliday = page.getByRole('form', { name: T('Add a holiday') });
      await addHoliday.getByLabel(T('Date'), { exact: true }).fill('2026-12-08');
      await addHoliday.getByLabel(T('Name'), { exact: true }).fill('Inmaculada Concepción');
      await addHoliday.getByRole('button', { name: T('Add holiday') }).click();
      await holidays.getByRole('cell', { name: 'Inmaculada Concepción', exact: true }).waitFor();
      // A local holiday of the Obrador centre, where the employee works: their day is free, the centre named.
      await addHoliday.getByLabel(T('Date'), { exact: true }).fill('2026-12-09');
      await addHoliday.getByLabel(T('Name'), { exact: true }).fill('Fiesta del Obrador');
      await addHoliday.getByLabel(T('Work centre'), { exact: true }).selectOption({ label: 'Obrador' });
      await addHoliday.getByRole('button', { name: T('Add holiday') }).click();
      await holidays
        .getByRole('row')
        .filter({ hasText: 'Fiesta del Obrador' })
        .getByRole('cell', { name: 'Obrador', exact: true })
        .waitFor();
      const expected = await page.evaluate(async (id) => {
        const response = await fetch(
          `/dashboard/api/live/work-summaries?period=day&from=2026-12-09&to=2026-12-09&employee_id=${id}`,
        );
        return (await response.json()).data[0]?.expected_minutes ?? 0;
      }, employeeId);
      expect(expected).toBe(0);
      const types = page.getByRole('form', { name: T('Add an absence type') });
      await types.getByLabel(T('Label'), { exact: true }).fill('Formación');
      await types.getByLabel(T('Key'), { exact: true }).fill('training');
      await types.getByRole('button', { name: T('Add absence type') }).click();
      await page
        .getByRole('region', { name: T('Absence types'), exact: true })
        .getByRole('cell', { name: 'Formación' })
        .waitFor();
      const second = `rrhh.dos.${variant.key}@example.com`;
      const admins = page.getByRole('form', { name: T('Add an administrator') });
      await admins.getByLabel(T('Email'), { exact: true }).fill(second);
      await admins.getByLabel(T('First password'), { exact: true }).fill('a second long password');
      await admins.getByRole('button', { name: T('Add administrator') }).click();
      const administrators = page.getByRole('region', { name: T('Administrators'), exact: true });
      await administrators.getByRole('cell', { name: second, exact: true }).waitFor();
      // The new administrator disabled again, after a confirmation; oneself has no such button.
      await page.getByRole('button', { name: T('Disable {{email}}', { email: second }) }).click();
      await page
        .getByRole('dialog', { name: T('Disable {{email}}?', { email: second }) })
        .getByRole('button', { name: T('Disable'), exact: true })
        .click();
      await administrators
        .getByText(new RegExp(`^${literally(prefix('disabled {{when}}', {}, 'when'))}`))
        .waitFor();
      expect(
        await page.getByRole('button', { name: T('Disable {{email}}', { email: login.email }) }).count(),
      ).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shot('settings-company');
      // The holiday removed again, after a confirmation.
      await holidays
        .getByRole('button', {
          name: T('Remove {{name}} ({{date}})', { name: 'Inmaculada Concepción', date: date('2026-12-08') }),
        })
        .click();
      await page
        .getByRole('dialog', { name: T('Remove the holiday of {{date}}?', { date: date('2026-12-08') }) })
        .getByRole('button', { name: T('Remove'), exact: true })
        .click();
      await expect
        .poll(() => holidays.getByRole('cell', { name: 'Inmaculada Concepción', exact: true }).count())
        .toBe(0);
      expect(await holidays.getByRole('cell', { name: 'Fiesta del Obrador', exact: true }).count()).toBe(1);
      const account = await http('GET', `/admin/v1/companies/${companyId}`, undefined, E2E_ADMIN_TOKEN);
      expect(account.body.late_record_hours).toBe(12);
    });

    it('closes a month, lists its acknowledgements, and grants, logs and revokes an access link', async () => {
      await open('registry', T('Registry'));
      // A month that has not ended is refused at once, before any confirmation (issue 39).
      const current = Temporal.Now.zonedDateTimeISO('Europe/Madrid').toPlainDate().toString().slice(0, 7);
      await page.getByLabel(T('Month to close'), { exact: true }).fill(current);
      await page
        .getByText(
          T('{{month}} has not ended yet: a month is closed once its last day has passed.', {
            month: month(current),
          }),
        )
        .waitFor();
      expect(await page.getByRole('button', { name: T('Close month'), exact: true }).isDisabled()).toBe(true);
      await page.getByLabel(T('Month to close'), { exact: true }).fill('2026-10');
      await page.getByRole('button', { name: T('Close month'), exact: true }).click();
      // First, what is still open in the month.
      const confirm = page.getByRole('dialog', { name: T('Close {{month}}?', { month: month('2026-10') }) });
      await confirm
        .getByRole('region', { name: T('Still open in {{month}}', { month: month('2026-10') }) })
        .getByText(
          T(
            '{{count}} corrections waiting (any month): one that touches the month can no longer apply once it is closed.',
            { count: 1 },
          ),
        )
        .waitFor();
      await shot('registry-close-summary');
      await confirm.getByRole('button', { name: T('Close the month') }).click();
      const acknowledgements = page.getByRole('region', {
        name: T('Acknowledgements of {{month}}', { month: month('2026-10') }),
      });
      await acknowledgements.getByRole('cell', { name: employeeName }).waitFor();
      // The month's row names who closed it.
      const closedRow = page
        .getByRole('row')
        .filter({ hasText: month('2026-10') })
        .first();
      await expect.poll(() => closedRow.textContent()).toContain(`${T('an administrator')}: ${login.email}`);
      expect(await acknowledgements.textContent()).toContain(
        T('{{done}} of {{count}} workers on this page have acknowledged the month’s document.', {
          done: 0,
          count: 1,
        }),
      );
      expect(await acknowledgements.getByRole('cell', { name: T('not yet') }).count()).toBe(1);
      await page
        .getByRole('button', {
          name: T('Workers’ documents of {{month}} (PDF)', { month: month('2026-10') }),
        })
        .click();
      await page
        .getByRole('status')
        .filter({
          hasText: T('The workers’ documents of {{month}} are being generated: download them from', {
            month: month('2026-10'),
          }),
        })
        .waitFor();

      const form = page.getByRole('form', { name: T('Grant access') });
      await form.getByLabel(T('Label'), { exact: true }).fill('ITSS Valencia 46/123');
      await form.getByLabel(T('From'), { exact: true }).fill('2026-10-01');
      await form.getByLabel(T('To'), { exact: true }).fill('2026-10-31');
      await form.getByRole('button', { name: T('Grant access') }).click();
      const link = (await page.getByTestId('secret').textContent()) as string;
      expect(link).toMatch(new RegExp(`^${base}/registry-access/[\\w-]{43}$`));
      expect(await axeViolations(page)).toEqual([]);
      await shot('registry-grant-link');
      await page.getByRole('button', { name: T('I have stored it') }).click();
      const grants = page.getByRole('region', { name: T('Access for the Inspección and representatives') });
      await grants.getByRole('cell', { name: T('active'), exact: true }).waitFor();

      const inspector = await page.context().newPage();
      await inspector.goto(link);
      await inspector.getByRole('rowheader', { name: employeeName }).waitFor();
      await inspector.close();

      await grants.getByRole('button', { name: T('Access log') }).click();
      const log = page.getByRole('region', {
        name: T('Access log: {{label}}', { label: 'ITSS Valencia 46/123' }),
      });
      // In the reader's language, what was opened and how it went (issue 39: it read "summary", "ok").
      await log.getByRole('cell', { name: T('The list of workers'), exact: true }).waitFor();
      expect(await log.getByRole('cell', { name: T('opened'), exact: true }).count()).toBe(1);
      expect(await log.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|summary|\bok\b/);
      await grants.getByRole('button', { name: T('Revoke'), exact: true }).click();
      await page
        .getByRole('dialog', {
          name: T('Revoke the access for {{label}}?', { label: 'ITSS Valencia 46/123' }),
        })
        .getByRole('button', { name: T('Revoke'), exact: true })
        .click();
      await grants.getByRole('cell', { name: T('revoked'), exact: true }).waitFor();
      expect((await http('GET', new URL(link).pathname.replace(/$/, '/api/summary'))).status).toBe(404);
      expect(await axeViolations(page)).toEqual([]);
      await shot('registry');
    });

    it('generates the workers’ monthly documents as XLSX from the report form', async () => {
      await open('reports', T('Reports'));
      await page.getByLabel(T('Report'), { exact: true }).selectOption('time_registry_worker_monthly');
      await page.getByLabel(T('Month'), { exact: true }).fill('2026-10');
      await page.getByLabel(T('Format'), { exact: true }).selectOption('xlsx');
      await page.getByLabel(T('Language of the file'), { exact: true }).selectOption('en');
      await page.getByRole('button', { name: T('Request report') }).click();
      const row = page.getByRole('row', {
        name: new RegExp(literally(`${T('Workers’ monthly documents')} (XLSX)`)),
      });
      // A report process of its own, as the check-in export's: on a loaded machine a minute, not a race.
      await row.getByRole('cell', { name: T('completed'), exact: true }).waitFor({ timeout: 60_000 });
      const download = await downloadFrom(row);
      expect(download.suggestedFilename()).toBe('worker-registry-2026-10.xlsx');
      const bytes = await readFile(await download.path());
      expect(bytes.subarray(0, 2).toString()).toBe('PK');
      expect(await row.textContent()).toContain(`${T('month')} ${month('2026-10')}, ${T('language')} en`);
    }, 120_000);

    it('requests the payroll variables laid out by the company’s concept map (issue 41)', async () => {
      // The payroll office's map, made through the API as an integration makes it.
      const map = await http(
        'POST',
        '/v1/payroll/concept-maps',
        { name: `Nómina ${variant.key}`, codes: { ordinary: '001' } },
        liveKey,
      );
      expect(map.status, map.text).toBe(201);
      await open('reports', T('Reports'));
      await page.getByLabel(T('Report'), { exact: true }).selectOption('payroll_variables');
      await page.getByLabel(T('Concept map'), { exact: true }).selectOption(map.body.id);
      await page.getByLabel(T('Month'), { exact: true }).fill('2026-10');
      await page.getByLabel(T('Format'), { exact: true }).selectOption('xlsx');
      await page.getByLabel(T('Language of the file'), { exact: true }).selectOption('es');
      expect(await axeViolations(page)).toEqual([]);
      await shot('payroll');
      await page.getByRole('button', { name: T('Request report') }).click();
      const row = page.getByRole('row', { name: new RegExp(literally(`${T('Payroll variables')} (XLSX)`)) });
      await row.getByRole('cell', { name: T('completed'), exact: true }).waitFor({ timeout: 60_000 });
      expect(await row.textContent()).toContain(`${T('concept map')} Nómina ${variant.key}`);
      const download = await downloadFrom(row);
      expect(download.suggestedFilename()).toBe('variables-nomina-2026-10.xlsx');
      const bytes = await readFile(await download.path());
      expect(bytes.subarray(0, 2).toString()).toBe('PK');
    }, 120_000);

    it('shows the integration settings and warns before switching the addon off', async () => {
      await open('settings', T('Settings'));
      const limits = page.getByRole('region', { name: T('Subscription and limits') });
      await limits.getByText(T('Rate limits'), { exact: true }).waitFor();
      expect(await limits.textContent()).toContain(
        T('live {{live}}/min per key, test {{test}}/min per key', { live: 120, test: 30 }),
      );
      // The lists above the switch that show no loading line (holidays, administrators) have arrived: a list
      // arriving after Playwright aimed its click moved the switch from under it.
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: T('Switch the addon off') }).click();
      const warning = page.getByRole('dialog', { name: T('Switch the public API addon off?') });
      expect(await warning.textContent()).toContain(
        T('every API key, live and test, is revoked; integrations stop working;'),
      );
      // Focus starts on Cancel: pressing Enter at once does not destroy anything.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(T('Cancel'));
      await shot('settings-addon-warning');
      await page.keyboard.press('Escape');
      await expect.poll(() => warning.isVisible()).toBe(false);
      // Cancelled: the key still works.
      expect((await http('GET', '/v1/organization', undefined, liveKey)).status).toBe(200);
    });

    it('plans next week in the planner: places a template on a day and publishes the week', async () => {
      await open('planner', T('Shifts'));
      // A template made here, in the form below the grid.
      const form = page.getByRole('form', { name: T('New shift template') });
      await form.getByLabel(T('Name'), { exact: true }).fill('Tarde');
      await form.getByLabel(T('Start'), { exact: true }).fill('14:00');
      await form.getByLabel(T('End'), { exact: true }).fill('22:00');
      await form.getByRole('button', { name: T('Create template'), exact: true }).click();
      await form
        .getByRole('status')
        .filter({ hasText: T('Template {{name}} created.', { name: 'Tarde' }) })
        .waitFor();
      await page
        .getByLabel(T('Template to place'), { exact: true })
        .getByRole('option', { name: 'Tarde' })
        .waitFor({ state: 'attached' });
      await page.getByRole('button', { name: T('Next week'), exact: true }).click();
      await page.getByLabel(T('Template to place'), { exact: true }).selectOption({ label: 'Mañana' });
      const vars = { template: 'Mañana', name: employeeName };
      await page
        .getByRole('button', {
          name: new RegExp(
            `^${literally(prefix('Place {{template}} for {{name}} on {{date}}', vars, 'date'))}`,
          ),
        })
        .first()
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: prefix('{{template}} placed for {{name}} on {{date}}.', vars, 'date') })
        .waitFor();
      // The draft is on the grid (or the day's list on a phone), and the row counts its hours.
      await page
        .getByRole('button', {
          name: new RegExp(
            `^06:00–14:00 · ${T('draft')} ${literally(prefix('(remove the shift of {{name}} on {{date}})', { name: employeeName }, 'date'))}`,
          ),
        })
        .first()
        .waitFor();
      if (!phone(variant))
        expect(await page.locator('table.planner').textContent()).toMatch(/7:30 \/ \d+:\d\d/);
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowing()).toEqual([]);
      await shot('planner-draft');
      await page
        .getByRole('button', { name: T('Publish the week ({{count}} drafts)', { count: 1 }), exact: true })
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: T('{{count}} shifts published: the workers see them.', { count: 1 }) })
        .waitFor();
      // The grid reloads: no draft left to publish.
      await page
        .getByRole('button', { name: T('Publish the week ({{count}} drafts)', { count: 0 }), exact: true })
        .waitFor();
      await shot('planner-published');
      // The foot adds up the employees shown; a unit with nobody in it shows nobody.
      const total = new RegExp(`${literally(T('Total of the employees shown'))}:? ?7:30 / \\d+:\\d\\d`);
      if (!phone(variant)) expect(await page.locator('table.planner tfoot').textContent()).toMatch(total);
      else expect(await page.locator('.planner-day + p').textContent()).toMatch(total);
      await page.getByLabel(T('Unit'), { exact: true }).selectOption({ label: 'Cocina' });
      await page.getByText(T('No employee matches.'), { exact: true }).waitFor();
      await page.getByLabel(T('Unit'), { exact: true }).selectOption({ label: T('All') });
      const listed = await http('GET', '/v1/shifts?status=published', undefined, liveKey);
      expect(listed.body.data).toEqual([
        expect.objectContaining({
          employee_id: employeeId,
          start: '06:00',
          end: '14:00',
          planned_minutes: 450,
        }),
      ]);
    });

    it.runIf(!phone(variant))(
      'puts the HR screens first, and the developers’ under their own label',
      async () => {
        await open('home', T('Today'));
        const nav = page.getByRole('navigation', { name: T('Screens') });
        expect(await nav.getByRole('link').allTextContents()).toEqual(
          [
            'Today',
            'Team calendar',
            'Shifts',
            'Employees',
            'Time records',
            'Reports',
            'Registry',
            'Clock-in devices',
            'Settings',
            'API keys',
            'Webhooks',
          ].map((label) => T(label)),
        );
        const developers = nav.getByRole('list', { name: T('Developers') });
        expect(await developers.getByRole('link').allTextContents()).toEqual([T('API keys'), T('Webhooks')]);
      },
    );

    it('tells the administrator through the bell: the legal-limit alerts, each leading to its screen', async () => {
      await open('home', T('Today'));
      const bell = page.getByRole('button', {
        name: new RegExp(`^${literally(T('Notifications'))} \\(\\d+ `),
      });
      await bell.click();
      const panel = page.getByRole('region', { name: T('Notifications') });
      const alert = panel.getByRole('link', { name: /Largo Turno/ }).first();
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        variant.language === 'es'
          ? 'Alerta de límites legales: Largo Turno'
          : 'Legal-limit alert: Largo Turno',
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowing()).toEqual([]);
      await shot('inbox');
      await panel.getByRole('button', { name: T('Mark all read'), exact: true }).click();
      await page
        .getByRole('button', { name: T('Notifications ({{count}} unread)', { count: 0 }), exact: true })
        .waitFor();
      await panel.getByRole('button', { name: T('Close'), exact: true }).click();
      await panel.waitFor({ state: 'detached' });
    });

    it('imports a staff list: a file with a wrong row is refused with the row marked, then the fixed file', async () => {
      await open('employees', T('Employees'));
      await page.getByRole('button', { name: T('Import from a file'), exact: true }).click();
      const form = page.getByRole('form', { name: T('Import employees') });
      const [day, monthNumber, year] = [today.slice(8, 10), today.slice(5, 7), today.slice(0, 4)];
      const file = (rows: string[]) => ({
        name: 'plantilla.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `\uFEFFNombre;Apellidos;Correo electrónico;Fecha de alta\r\n${rows.join('\r\n')}\r\n`,
          'utf8',
        ),
      });
      const rows = [
        `Irene;Importada;irene.${variant.key}@example.com;${day}/${monthNumber}/${year}`,
        `Iker;Importado;iker.${variant.key}@example.com;${day}/${monthNumber}/${year}`,
      ];
      await form
        .getByLabel(T('File (CSV or XLSX)'), { exact: true })
        .setInputFiles(file([...rows, `Inés;Sin Correo;no-es-correo;${day}/${monthNumber}/${year}`]));
      await form.getByRole('button', { name: T('Review the file'), exact: true }).click();
      const table = page.getByRole('region', { name: T('Rows of the file') });
      await table.getByRole('cell', { name: 'Inés Sin Correo', exact: true }).waitFor();
      const bad = table.getByRole('row').filter({ hasText: 'Inés Sin Correo' });
      // The service's message in the reader's language (it is English on the wire).
      expect(await bad.textContent()).toContain(
        variant.language === 'es'
          ? 'Correo electrónico: debe ser una dirección de correo válida.'
          : 'Email must be a valid email.',
      );
      expect(await page.getByRole('button', { name: /^(Import|Importar) \d/ }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowing()).toEqual([]);
      await shot('employees-import-errors');
      await form.getByLabel(T('File (CSV or XLSX)'), { exact: true }).setInputFiles(file(rows));
      await form.getByRole('button', { name: T('Review the file'), exact: true }).click();
      await page
        .getByRole('button', { name: T('Import {{count}} employees', { count: 2 }), exact: true })
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Imported {{count}} employees.', { count: 2 }) })
        .first()
        .waitFor();
      const names = await page.evaluate(async () => {
        const response = await fetch('/dashboard/api/live/employees?limit=100');
        return ((await response.json()).data as Array<{ last_name: string }>).map((row) => row.last_name);
      });
      expect(names).toEqual(expect.arrayContaining(['Importada', 'Importado']));
      expect(names).not.toContain('Sin Correo');
      await shot('employees-import');
    });

    it('gives a team lead their unit: they see and approve only its requests, several at once', async () => {
      // A unit with two workers asking for a day off each; Lucía, in no unit, asks too.
      const unit = await http(
        'POST',
        `/admin/v1/companies/${companyId}/units`,
        { name: 'Sala' },
        E2E_ADMIN_TOKEN,
      );
      expect(unit.status, unit.text).toBe(201);
      const asked: string[] = [];
      for (const [first, last] of [
        ['Sara', 'Sala'],
        ['Saúl', 'Sala'],
      ] as const) {
        const hired = await http(
          'POST',
          '/v1/employees',
          {
            first_name: first,
            last_name: last,
            email: `${first.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}.${variant.key}@example.com`,
            // Hired today: the journeys before this one closed a month.
            hire_date: today,
            unit_id: unit.body.id,
          },
          liveKey,
        );
        expect(hired.status, hired.text).toBe(201);
        const request = await http(
          'POST',
          '/v1/absences',
          { employee_id: hired.body.id, type: 'vacation', start_date: '2027-06-14', end_date: '2027-06-14' },
          liveKey,
        );
        expect(request.status, request.text).toBe(201);
        asked.push(request.body.id);
      }
      const outside = await http(
        'POST',
        '/v1/absences',
        // A day no other journey asks for.
        { employee_id: employeeId, type: 'vacation', start_date: '2027-06-15', end_date: '2027-06-15' },
        liveKey,
      );
      expect(outside.status, outside.text).toBe(201);

      // The owner makes a team lead of the unit in Settings.
      await open('settings', T('Settings'));
      const lead = { email: `jefa.sala.${variant.key}@example.com`, password: 'a team lead password' };
      const form = page.getByRole('form', { name: T('Add an administrator') });
      await form.getByLabel(T('Email'), { exact: true }).fill(lead.email);
      await form.getByLabel(T('First password'), { exact: true }).fill(lead.password);
      await form.getByLabel(T('Role'), { exact: true }).selectOption({ label: T('Team lead') });
      await form.getByRole('checkbox', { name: 'Sala', exact: true }).check();
      await form.getByRole('button', { name: T('Add administrator') }).click();
      const administrators = page.getByRole('region', { name: T('Administrators'), exact: true });
      await administrators.getByRole('cell', { name: `${T('Team lead')}: Sala`, exact: true }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot('settings-roles');

      // The team lead logs in: their screens only, their unit's requests only.
      await account();
      await page.getByRole('button', { name: T('Log out'), exact: true }).click();
      await page.evaluate(() => {
        window.location.hash = '#/home';
      });
      await page.getByLabel(T('Email'), { exact: true }).fill(lead.email);
      await page.getByLabel(T('Password'), { exact: true }).fill(lead.password);
      await page.getByRole('button', { name: T('Log in'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Hoy' }).waitFor();
      if (variant.language === 'en') {
        await account();
        await page.getByRole('button', { name: 'Switch to English' }).click();
        await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      }
      const menu = page.getByRole('button', { name: T('Menu') });
      if (await menu.isVisible()) await menu.click();
      const links = await page
        .getByRole('navigation', { name: T('Screens') })
        .getByRole('link')
        .allTextContents();
      expect(links).toEqual(
        ['Today', 'Team calendar', 'Shifts', 'Employees', 'Time records', 'Settings'].map((label) =>
          T(label),
        ),
      );
      if (await menu.isVisible()) await menu.click();
      await open('absences', T('Team calendar'));
      const requests = page.getByRole('region', { name: T('Requests ({{number}})', { number: 2 }) });
      await requests.waitFor();
      expect(await requests.textContent()).not.toContain(employeeName);
      for (const who of ['Sara Sala', 'Saúl Sala']) {
        await requests.getByLabel(T('Select {{who}}’s request', { who }), { exact: true }).check();
      }
      await requests
        .getByRole('button', { name: T('Approve the selected ({{count}})', { count: 2 }) })
        .click();
      const dialog = page.getByRole('dialog', { name: T('Approve {{count}} requests?', { count: 2 }) });
      await dialog.getByRole('button', { name: T('Approve'), exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: T('Approved {{count}} requests.', { count: 2 }) })
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot('team-lead-calendar');
      for (const id of asked) {
        expect((await http('GET', `/v1/absences/${id}`, undefined, liveKey)).body.status).toBe('approved');
      }
      expect((await http('GET', `/v1/absences/${outside.body.id}`, undefined, liveKey)).body.status).toBe(
        'requested',
      );
      // The server agrees with the screen: Lucía's request is beyond the team lead's reach.
      const refused = await page.evaluate(async (id) => {
        const session = await (await fetch('/dashboard/api/session')).json();
        const response = await fetch(`/dashboard/api/live/absences/${id}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
          body: '{}',
        });
        return response.status;
      }, outside.body.id);
      expect(refused).toBe(404);
      // Back to the owner for the journeys after this one; Lucía's request refused so that none waits.
      await account();
      await page.getByRole('button', { name: T('Log out'), exact: true }).click();
      await page.evaluate(() => {
        window.location.hash = '#/home';
      });
      await page.getByLabel(T('Email'), { exact: true }).fill(login.email);
      await page.getByLabel(T('Password'), { exact: true }).fill(login.password);
      await page.getByRole('button', { name: T('Log in'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T('Today') }).waitFor();
      expect(
        (await http('POST', `/v1/absences/${outside.body.id}/reject`, { reason: 'Cierre' }, liveKey)).status,
      ).toBe(200);
    });

    it('shows every screen whole: nothing off-screen, no refusal, nothing left untranslated, axe clean', async () => {
      const screens = [
        ['home', 'Today'],
        ['keys', 'API keys'],
        ['webhooks', 'Webhooks'],
        ['absences', 'Team calendar'],
        ['planner', 'Shifts'],
        ['employees', 'Employees'],
        ['check-ins', 'Time records'],
        ['reports', 'Reports'],
        ['registry', 'Registry'],
        ['kiosks', 'Clock-in devices'],
        ['settings', 'Settings'],
      ] as const;
      for (const [screen, heading] of screens) {
        await open(screen, T(heading));
        await page.waitForLoadState('networkidle');
        if (phone(variant)) {
          // Choosing a screen folds the menu again.
          expect(await page.getByRole('button', { name: T('Menu') }).getAttribute('aria-expanded')).toBe(
            'false',
          );
          expect(await page.getByRole('link', { name: T('Team calendar') }).isVisible()).toBe(false);
        }
        expect(await overflowing()).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        expect(await page.getByRole('alert').count()).toBe(0);
        if (variant.language === 'es') expect(await untranslated()).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, `${variant.key}-${screen}.png`), fullPage: true });
      }
    });

    it.runIf(phone(variant))('folds the screens into a menu and shows tables as lists of cards', async () => {
      // A data table is a list of cards: its header row hidden, each value under its column's name, the row's
      // actions inside the screen's width, and the table's semantics kept for screen readers.
      await open('employees', T('Employees'));
      await page.locator('main table.stack tbody tr').first().waitFor();
      const cards = await page.evaluate(() => {
        const table = document.querySelector('main table.stack') as HTMLTableElement;
        const row = table.tBodies[0]?.rows[0] as HTMLTableRowElement;
        const cell = row.cells[0] as HTMLTableCellElement;
        const button = table.querySelector('tbody button') as HTMLButtonElement;
        return {
          header: getComputedStyle(table.tHead as HTMLElement).position,
          row: getComputedStyle(row).display,
          label: getComputedStyle(cell, '::before').content,
          button: button.getBoundingClientRect().right <= window.innerWidth,
          roles: [table.getAttribute('role'), row.getAttribute('role'), cell.getAttribute('role')],
        };
      });
      expect(cards).toEqual({
        header: 'absolute',
        row: 'block',
        // The column's name is shown, with an empty alternative text: not read out twice.
        label: `${JSON.stringify(T('Name'))} / ""`,
        button: true,
        roles: ['table', 'row', 'cell'],
      });
      // Issue 39: the header keeps to one line (the account folds behind a button), and on the home page what
      // waits for the administrator comes first.
      await open('home', T('Today'));
      const header = await page.locator('.shell > header').boundingBox();
      expect(header?.height).toBeLessThanOrEqual(64);
      const waiting = await page.getByRole('heading', { name: T('Waiting for you') }).boundingBox();
      expect(waiting?.y).toBeLessThan(variant.height);
      await open('employees', T('Employees'));
      // The menu, open: every screen in one column; Escape folds it and gives the focus back to its button.
      const menu = page.getByRole('button', { name: T('Menu') });
      await menu.click();
      await page.getByRole('link', { name: T('Team calendar') }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `${variant.key}-menu.png`), fullPage: true });
      await page.getByRole('link', { name: T('Team calendar') }).focus();
      await page.keyboard.press('Escape');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-toggle'))).toBe(true);
    });

    it.runIf(variant.language === 'es')(
      'says dates, months and numbers the Spanish way, in the company’s zone',
      async () => {
        await open('absences', T('Team calendar'));
        await page.getByLabel(T('Month'), { exact: true }).fill('2026-12');
        await page.getByRole('region', { name: 'Calendario del equipo, diciembre de 2026' }).waitFor();
        await open('registry', T('Registry'));
        const months = page.getByRole('region', { name: 'Meses cerrados' });
        await months.getByRole('cell', { name: 'octubre de 2026', exact: true }).waitFor();
        // An instant: day, month, year, the 24-hour time and the zone's name (Madrid: CET in winter).
        expect(await months.getByRole('row').nth(1).textContent()).toMatch(
          /\d{1,2} \w{3} 2026, \d{2}:\d{2} CET/,
        );
        await open('settings', T('Settings'));
        // Numbers with the Spanish grouping: 11.000, not 11,000.
        expect(await page.getByRole('region', { name: 'Suscripción y límites' }).textContent()).toMatch(
          /de 11\.000|de \d{1,3}(\.\d{3})+/,
        );
      },
    );
  });
}
