/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser, so this file also sees the DOM types.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ensureDashboardBuilt } from '../helpers/dashboard-build.ts';
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
 * The dashboard in a real browser: Chromium (test/helpers/browser.ts) driven by playwright-core, against a real `jornada serve`
 * process (API and workers) over HTTP. Screenshots of every screen go to test-results/dashboard/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/dashboard');

let database: TestDatabase;
let dataDir: string;
let node: ServiceNode;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let base = '';
let http: ReturnType<typeof httpClient>;
let liveKey = '';
const login = { email: 'hr.admin@example.com', password: 'a long dashboard password' };
let absenceId = '';
let employeeName = '';
let employeeId = '';
let companyId = '';

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
  const company = await http('POST', '/admin/v1/companies', { name: 'Browser Co' }, E2E_ADMIN_TOKEN);
  expect(company.status).toBe(201);
  const admin = await http('POST', `/admin/v1/companies/${company.body.id}/admins`, login, E2E_ADMIN_TOKEN);
  expect(admin.status, admin.text).toBe(201);
  liveKey = (
    await http(
      'POST',
      `/admin/v1/companies/${company.body.id}/api-keys`,
      {
        mode: 'live',
        scopes: ['org:empleados:write', 'org:ausencias:write', 'org:ausencias:read', 'org:fichajes:write'],
      },
      E2E_ADMIN_TOKEN,
    )
  ).body.secret;
  const employee = await http(
    'POST',
    '/v1/employees',
    { first_name: 'Lucía', last_name: 'Browser', email: 'lucia@example.com', hire_date: '2026-01-01' },
    liveKey,
  );
  employeeName = 'Lucía Browser';
  employeeId = employee.body.id;
  companyId = company.body.id;
  // A shift on today's UTC date (the screens default to it) that is never in the future, whatever the hour the
  // test runs at: from up to 4 hours ago (not before midnight) to 3 minutes ahead (within the 5-minute skew).
  const now = Date.now();
  const midnight = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  const shift = {
    in: Math.max(midnight, now - 4 * 3_600_000),
    out: Math.min(midnight + 86_399_000, now + 3 * 60_000),
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
  const absence = await http(
    'POST',
    '/v1/absences',
    { employee_id: employee.body.id, type: 'vacation', start_date: '2026-12-21', end_date: '2026-12-23' },
    liveKey,
  );
  expect(absence.status, absence.text).toBe(201);
  absenceId = absence.body.id;

  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
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

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const open = async (screen: string, heading: string) => {
  // At phone width the screens are behind the menu button.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
  }
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: heading }).click();
  await expect.poll(() => page.url()).toContain(`#/${screen}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};
/** What sticks out of the screen's width (none at phone width: every action reachable without sideways scrolling). */
const overflowing = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        // Inside a box that scrolls (a calendar) is fine; the page itself must not.
        return box.right > window.innerWidth + 0.5 && !element.closest('.table-wrap') && box.width > 0;
      })
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`,
      ),
  );
const setMode = (mode: 'Live' | 'Test (sandbox)') => page.getByLabel(mode, { exact: true }).check();
const callV1 = (secret: string) =>
  page.evaluate(async (key) => {
    const response = await fetch('/v1/organization', { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: await response.json() };
  }, secret);

describe('the dashboard in Chromium', () => {
  it('refuses a wrong password, then logs in with the keyboard', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('The email or the password is wrong.');
    await shot('login-error');

    await page.getByLabel('Password').fill('');
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type(login.password);
    await page.keyboard.press('Enter');
    // A company in Spain: the dashboard speaks Spanish, whatever the browser's language on the login page.
    await page.getByRole('heading', { level: 1, name: 'Hoy' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    // This administrator chooses English: kept on the server, for every later session.
    await page.getByRole('button', { name: 'Switch to English' }).click();
    // The home page: today at a glance.
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const me = await page.evaluate(async () => (await fetch('/dashboard/api/session')).json());
    expect(me).toMatchObject({ language: 'en', admin: { language: 'en' } });
    await page.getByRole('heading', { name: 'Problem days, last 14 days' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(employeeName);
    expect(await axeViolations(page)).toEqual([]);
    await shot('home');
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'jornada_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    // The cookie is out of the page's reach.
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('creates a test key, uses it against /v1/organization, revokes it and gets 401', async () => {
    await open('keys', 'API keys');
    // Nothing chosen: every problem is listed, none hidden, and each field says its own.
    await page.getByLabel('Name').fill('x'.repeat(100));
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Scopes needs at least 1 item.');
    expect(await page.locator('#scopes-error').textContent()).toBe('Scopes needs at least 1 item.');
    expect(await page.getByRole('alert').textContent()).not.toMatch(/must NOT|more\)/);
    await shot('keys-field-error');
    await page.getByLabel('Name').fill('');
    await setMode('Test (sandbox)');
    await page.getByRole('note').filter({ hasText: 'Test mode' }).waitFor();
    await page.getByLabel('Name').fill('Browser test key');
    await page.getByLabel('org:empleados:read').check();
    await page.getByLabel('org:fichajes:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^jrn_test_[0-9A-Za-z]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot('api-keys-secret');

    const used = await callV1(secret);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ sandbox: true, mode: 'test' });

    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: 'Revoke Browser test key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await shot('api-keys-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('cell', { name: 'revoked (revoked_by_dashboard)' }).waitFor();
    await shot('api-keys');
    expect((await callV1(secret)).status).toBe(401);
  });

  it('approves an absence from the team calendar after seeing the balance and who else is off', async () => {
    await setMode('Live');
    await open('absences', 'Team calendar');
    const requests = page.getByRole('region', { name: /^Requests/ });
    await requests.getByRole('button', { name: `Approve ${employeeName}` }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot('team-calendar');
    await requests.getByRole('button', { name: `Approve ${employeeName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Approve ${employeeName}’s vacation?` });
    await dialog.getByText('Left after approval').waitFor();
    expect(await dialog.textContent()).toContain('Nobody else.');
    expect(await dialog.textContent()).toMatch(/Taken after approval\s*3 days/);
    await shot('team-calendar-approve');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Approved: ${employeeName}` })
      .waitFor();
    const approved = await http('GET', '/v1/absences?status=approved', undefined, liveKey);
    expect(approved.status).toBe(200);
    expect(approved.body.data.map((absence: { id: string }) => absence.id)).toContain(absenceId);
    // The calendar of December shows it, day by day.
    await page.getByLabel('Month').fill('2026-12');
    const calendar = page.getByRole('region', { name: 'Team calendar, December 2026' });
    await expect.poll(() => calendar.getByText('Vacation, approved').count()).toBe(3);
  });

  it('creates, rejects with a reason, and cancels absences for an employee', async () => {
    await open('absences', 'Team calendar');
    await page.getByLabel('Month').fill('2026-11');
    const form = page.getByRole('form', { name: 'Create an absence' });
    await form.getByLabel('Employee').selectOption({ label: employeeName });
    await form.getByLabel('Type').selectOption('sick_leave');
    await form.getByLabel('From').fill('2026-11-30');
    await form.getByLabel('To').fill('2026-11-30');
    await form.getByRole('button', { name: 'Create absence' }).click();
    await page.getByRole('status').filter({ hasText: 'Created and approved' }).waitFor();
    // Cancelled from the month's approved list.
    await page.getByRole('button', { name: `Cancel ${employeeName}’s sick leave from 30 Nov 2026` }).click();
    await page
      .getByRole('dialog', { name: /^Cancel / })
      .getByRole('button', { name: 'Cancel the absence' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cancelled: ${employeeName}, Sick leave, 30 Nov 2026` })
      .waitFor();
    const cancelled = await http('GET', '/v1/absences?status=cancelled', undefined, liveKey);
    expect(cancelled.body.data.map((absence: { start_date: string }) => absence.start_date)).toEqual([
      '2026-11-30',
    ]);
    await expect
      .poll(() => page.getByRole('button', { name: /^Cancel .* from 30 Nov 2026$/ }).count())
      .toBe(0);
    // A request, rejected with a reason the employee will read.
    await form.getByLabel('Type').selectOption('vacation');
    await form.getByLabel('From').fill('2027-01-11');
    await form.getByLabel('To').fill('2027-01-12');
    await form.getByLabel('Approve at once').uncheck();
    await form.getByRole('button', { name: 'Create absence' }).click();
    await page.getByRole('status').filter({ hasText: 'Requested' }).waitFor();
    await page.getByRole('button', { name: `Reject ${employeeName}` }).click();
    const reject = page.getByRole('dialog', { name: `Reject ${employeeName}’s request?` });
    await reject.getByLabel('Reason (shown to the employee)').fill('Cierre de inventario esos días');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Rejected: ${employeeName}` })
      .waitFor();
    const denied = await http('GET', '/v1/absences?status=denied', undefined, liveKey);
    expect(denied.body.data.map((absence: { denial_reason: string }) => absence.denial_reason)).toContain(
      'Cierre de inventario esos días',
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it('creates a webhook endpoint, sends a ping and sees its delivery succeed', async () => {
    await open('webhooks', 'Webhooks');
    await page.getByLabel('URL').fill(`${receiver.url}/hooks`);
    await page.getByLabel('Description').fill('Payroll receiver');
    await page.getByLabel('employee.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await page.getByRole('status').filter({ hasText: 'Test ping queued' }).waitFor();
    const [ping] = await receiver.waitFor(1);
    expect(JSON.parse(ping?.body ?? '{}').type).toBe('ping');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return await page.getByRole('region', { name: 'Deliveries' }).textContent();
        },
        { timeout: 15_000 },
      )
      .toMatch(/ping.*succeeded.*204/);
    await shot('webhooks');
  });

  it('requests a check-in export, sees it complete, and downloads the file', async () => {
    await open('reports', 'Reports');
    await page.getByLabel('Report', { exact: true }).selectOption('check_ins_export');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(today);
    await page.getByRole('button', { name: 'Request report' }).click();
    await page.getByRole('cell', { name: 'completed' }).waitFor({ timeout: 20_000 });
    await shot('reports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`check-ins-${today}_${today}.csv`);
    const file = await download.path();
    const rows = parse(await readFile(file), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.type)).toEqual(['in', 'out']);
  });

  it('lists, searches, creates and terminates employees', async () => {
    await open('employees', 'Employees');
    await page.getByRole('button', { name: 'New employee' }).click();
    const form = page.getByRole('form', { name: 'Create employee' });
    await form.getByLabel('First name').fill('Mateo');
    await form.getByLabel('Last name').fill('Nuevo');
    await form.getByLabel('Email').fill('mateo@example.com');
    await form.getByRole('button', { name: 'Create employee' }).click();
    await page.getByRole('status').filter({ hasText: 'Created Mateo Nuevo' }).waitFor();
    await page.getByLabel('Search').fill('nuevo');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Edit Mateo Nuevo' }).click();
    // The workers' portal invitation: a link to give the employee (no mail server here), which opens the portal.
    await page.getByRole('button', { name: 'Invite to the workers’ portal' }).click();
    const link = await page.getByTestId('secret').textContent();
    expect(link).toMatch(new RegExp(`^${base}/portal/invitation\\?token=[\\w-]{43}$`));
    await shot('employee-portal-invitation');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const portal = await page.context().newPage();
    await portal.goto(link as string);
    await portal.getByRole('heading', { name: 'Crea tu contraseña' }).waitFor();
    await portal.close();
    await page.getByRole('button', { name: 'Terminate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Terminate' }).click();
    await page.getByRole('status').filter({ hasText: 'Terminated Mateo Nuevo' }).waitFor();
    await shot('employees');
    // A readable error from the API: an email already taken in this company.
    await page.getByRole('button', { name: 'New employee' }).click();
    await form.getByLabel('First name').fill('Dup');
    await form.getByLabel('Last name').fill('Licate');
    await form.getByLabel('Email').fill('mateo@example.com');
    await form.getByRole('button', { name: 'Create employee' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email/i);
    await shot('employees-error');
  });

  it("shows an employee's check-ins and workday figures for a day, and corrects them with a reason", async () => {
    await open('check-ins', 'Time records');
    await page.getByRole('button', { name: employeeName }).click();
    const day = page.getByRole('region', { name: new RegExp(`Check-ins of ${employeeName}`) });
    await expect.poll(() => day.getByRole('row').count()).toBe(3);
    await expect.poll(() => day.textContent()).toContain('Worked');
    await shot('check-ins');
    // Void the in through a correction: a dialog asks for the reason the registry keeps.
    await day.getByRole('button', { name: /^Void in at / }).click();
    const dialog = page.getByRole('dialog', { name: /^Void the in at / });
    await dialog.getByLabel('Reason (kept in the registry)').fill('Fichaje duplicado por error');
    await dialog.getByRole('button', { name: 'Request the correction' }).click();
    await day.getByRole('status').filter({ hasText: 'Correction requested.' }).first().waitFor();
    // Add a missing break in the day, also through a correction.
    const add = page.getByRole('form', { name: 'Record a missing check-in' });
    await add.getByLabel('Type').selectOption('break_start');
    await add.getByLabel(/^Time \(/).fill('00:00');
    await add.getByLabel('Reason (kept in the registry)').fill('Olvidó fichar la pausa');
    await add.getByRole('button', { name: 'Request the correction' }).click();
    await add.getByRole('status').waitFor();
    const queue = page.getByRole('region', { name: 'Corrections waiting', exact: true });
    await expect.poll(() => queue.getByRole('row').count()).toBe(3);
    expect(await queue.textContent()).toContain('Fichaje duplicado por error');
    expect(await queue.textContent()).toContain('to accept in the portal');
    expect(await axeViolations(page)).toEqual([]);
    await shot('time-records-corrections');
    // The company approves one and rejects the other, with a reason.
    const voidRow = queue.getByRole('row').filter({ hasText: 'Fichaje duplicado por error' });
    const breakRow = queue.getByRole('row').filter({ hasText: 'Olvidó fichar la pausa' });
    await voidRow.getByRole('button', { name: `Approve ${employeeName}’s correction` }).click();
    await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    await expect.poll(() => voidRow.textContent()).toContain('approved');
    await breakRow.getByRole('button', { name: `Reject ${employeeName}’s correction` }).click();
    // The open dialog is the one of that row.
    const reject = page.locator('dialog[open]');
    await reject
      .getByLabel('Reason (shown to the worker, kept in the registry)')
      .fill('No hubo pausa ese día');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor();
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
    await open('settings', 'Settings');
    const identity = page.getByRole('form', { name: 'Legal identity' });
    await identity.getByLabel('Legal name').fill('Panadería Sol, S.L.');
    // A tax id with a wrong control character is refused with the field named.
    await identity.getByLabel('Tax id (CIF/NIF)').fill('B12345675');
    await identity.getByRole('button', { name: 'Save legal identity' }).click();
    await expect.poll(() => identity.getByRole('alert').textContent()).toMatch(/^Check this field:Tax id /);
    // The field itself is marked, with its own message read with it.
    const taxId = identity.getByLabel('Tax id (CIF/NIF)');
    expect(await taxId.getAttribute('aria-invalid')).toBe('true');
    expect(await identity.locator('.field-error').textContent()).toMatch(
      /^Tax id \(CIF\/NIF\) is not a valid CIF/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot('settings-field-error');
    await identity.getByLabel('Tax id (CIF/NIF)').fill('b-12345674');
    await identity.getByRole('button', { name: 'Save legal identity' }).click();
    await identity.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const account = await http('GET', `/admin/v1/companies/${companyId}`, undefined, E2E_ADMIN_TOKEN);
    expect(account.body).toMatchObject({ legal_name: 'Panadería Sol, S.L.', tax_id: 'B12345674' });
    await page.getByRole('button', { name: 'Edit Obrador' }).click();
    const edit = page.getByRole('form', { name: 'Edit Obrador' });
    await edit.getByLabel('Address').fill('Carrer de la Pau 12, València');
    await edit.getByLabel('CCC (código cuenta de cotización)').fill('46123456752');
    await edit.getByRole('button', { name: 'Save Obrador' }).click();
    await page.getByRole('cell', { name: '46123456752' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot('settings-identity');

    await open('employees', 'Employees');
    await page.getByRole('button', { name: `Edit ${employeeName}` }).click();
    const form = page.getByRole('form', { name: 'Save employee' });
    await form.getByLabel('National id (NIF/NIE)').fill('12345678Z');
    await form.getByLabel('Social Security number (NAF)').fill('281234567840');
    await form.getByRole('button', { name: 'Save employee' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved ${employeeName}` })
      .waitFor();
    // Read back through the dashboard's own session API.
    const saved = await page.evaluate(async (id) => {
      const response = await fetch(`/dashboard/api/live/employees/${id}`);
      return response.json();
    }, employeeId);
    expect(saved).toMatchObject({ national_id: '12345678Z', social_security_number: '281234567840' });
    // The contract: Fridays of six hours from December on; the history keeps November's week.
    const contract = page.getByRole('form', { name: 'Schedule and vacation' });
    await contract.getByLabel('Friday').fill('6');
    await contract.getByLabel('From').fill('2026-12-01');
    await contract.getByRole('button', { name: 'Save schedule and vacation' }).click();
    const history = page.getByRole('region', { name: 'Contract history', exact: true });
    await expect.poll(() => history.getByRole('row').count()).toBe(3);
    expect(await history.textContent()).toContain('30 Nov 2026');
    expect(await history.textContent()).toContain('Fri 6 h');
    const assignment = page.getByRole('form', { name: 'Assignment and registry' });
    await assignment.getByLabel('Work centre').selectOption({ label: 'Obrador' });
    await assignment.getByRole('button', { name: 'Save assignment' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved ${employeeName}` })
      .waitFor();
    await page.getByRole('region', { name: 'Vacation 2026' }).getByText('Left').waitFor();
    const updated = await page.evaluate(async (id) => {
      const response = await fetch(`/dashboard/api/live/employees/${id}`);
      return response.json();
    }, employeeId);
    expect(updated.work_schedule.fri).toBe(360);
    expect(updated.location_id).not.toBeNull();
    // The employee's own page: the month as a calendar, the banked balance chart, the year's absences.
    await page
      .getByRole('region', { name: /^Days of [A-Z][a-z]+ \d{4}$/ })
      .getByRole('columnheader', { name: 'Mon' })
      .waitFor();
    await page.getByRole('figure', { name: 'Banked hours at the end of each month' }).waitFor();
    await page
      .getByRole('region', { name: /^Absences of \d{4}$/ })
      .getByRole('cell', { name: 'Vacation' })
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot('employee-contract');
  });

  it('keeps the company settings: recording, holidays, absence types and administrators', async () => {
    await open('settings', 'Settings');
    const recording = page.getByRole('form', { name: 'Recording' });
    await recording.getByLabel('Late record after (hours)').fill('72');
    await recording.getByRole('button', { name: 'Save recording settings' }).click();
    await recording.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const holidays = page.getByRole('region', { name: 'Holidays', exact: true });
    const addHoliday = page.getByRole('form', { name: 'Add a holiday' });
    await addHoliday.getByLabel('Date').fill('2026-12-08');
    await addHoliday.getByLabel('Name').fill('Inmaculada Concepción');
    await addHoliday.getByRole('button', { name: 'Add holiday' }).click();
    await holidays.getByRole('cell', { name: 'Inmaculada Concepción', exact: true }).waitFor();
    // A local holiday of the Obrador centre, where the employee works: their day is free, the centre named.
    await addHoliday.getByLabel('Date').fill('2026-12-09');
    await addHoliday.getByLabel('Name').fill('Fiesta del Obrador');
    await addHoliday.getByLabel('Work centre').selectOption({ label: 'Obrador' });
    await addHoliday.getByRole('button', { name: 'Add holiday' }).click();
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
    const types = page.getByRole('form', { name: 'Add an absence type' });
    await types.getByLabel('Label').fill('Formación');
    await types.getByLabel('Key').fill('training');
    await types.getByRole('button', { name: 'Add absence type' }).click();
    await page
      .getByRole('region', { name: 'Absence types', exact: true })
      .getByRole('cell', { name: 'Formación' })
      .waitFor();
    const admins = page.getByRole('form', { name: 'Add an administrator' });
    await admins.getByLabel('Email').fill('rrhh.dos@example.com');
    await admins.getByLabel('First password').fill('a second long password');
    await admins.getByRole('button', { name: 'Add administrator' }).click();
    await page
      .getByRole('region', { name: 'Administrators', exact: true })
      .getByRole('cell', { name: 'rrhh.dos@example.com', exact: true })
      .waitFor();
    // The new administrator disabled again, after a confirmation; oneself has no such button.
    await page.getByRole('button', { name: 'Disable rrhh.dos@example.com' }).click();
    await page
      .getByRole('dialog', { name: 'Disable rrhh.dos@example.com?' })
      .getByRole('button', { name: 'Disable' })
      .click();
    await page
      .getByRole('region', { name: 'Administrators', exact: true })
      .getByText(/^disabled /)
      .waitFor();
    expect(await page.getByRole('button', { name: `Disable ${login.email}` }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot('settings-company');
    // The holiday removed again, after a confirmation.
    await holidays.getByRole('button', { name: 'Remove Inmaculada Concepción (8 Dec 2026)' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the holiday of 8 Dec 2026?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect
      .poll(() => holidays.getByRole('cell', { name: 'Inmaculada Concepción', exact: true }).count())
      .toBe(0);
    expect(await holidays.getByRole('cell', { name: 'Fiesta del Obrador', exact: true }).count()).toBe(1);
    const account = await http('GET', `/admin/v1/companies/${companyId}`, undefined, E2E_ADMIN_TOKEN);
    expect(account.body.late_record_hours).toBe(72);
  });

  it('closes a month, lists its acknowledgements, and grants, logs and revokes an access link', async () => {
    await open('registry', 'Registry');
    await page.getByLabel('Month to close').fill('2026-10');
    await page.getByRole('button', { name: 'Close month' }).click();
    // First, what is still open in the month.
    await page
      .getByRole('dialog', { name: 'Close October 2026?' })
      .getByRole('region', { name: 'Still open in October 2026' })
      .getByText('1 correction waiting (any month)', { exact: false })
      .waitFor();
    await shot('registry-close-summary');
    await page
      .getByRole('dialog', { name: 'Close October 2026?' })
      .getByRole('button', { name: 'Close the month' })
      .click();
    const acknowledgements = page.getByRole('region', { name: 'Acknowledgements of October 2026' });
    await acknowledgements.getByRole('cell', { name: employeeName }).waitFor();
    expect(await acknowledgements.textContent()).toContain('0 of 1 worker on this page has');
    expect(await acknowledgements.getByRole('cell', { name: 'not yet' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Workers’ documents of October 2026 (PDF)' }).click();
    await page.getByRole('status').filter({ hasText: 'are being generated' }).waitFor();

    const form = page.getByRole('form', { name: 'Grant access' });
    await form.getByLabel('Label').fill('ITSS Valencia 46/123');
    await form.getByLabel('From').fill('2026-10-01');
    await form.getByLabel('To').fill('2026-10-31');
    await form.getByRole('button', { name: 'Grant access' }).click();
    const link = (await page.getByTestId('secret').textContent()) as string;
    expect(link).toMatch(new RegExp(`^${base}/registry-access/[\\w-]{43}$`));
    expect(await axeViolations(page)).toEqual([]);
    await shot('registry-grant-link');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const grants = page.getByRole('region', { name: 'Access for the Inspección and representatives' });
    await grants.getByRole('cell', { name: 'active' }).waitFor();

    const inspector = await page.context().newPage();
    await inspector.goto(link);
    await inspector.getByRole('rowheader', { name: employeeName }).waitFor();
    await inspector.close();

    await grants.getByRole('button', { name: 'Access log' }).click();
    const log = page.getByRole('region', { name: 'Access log: ITSS Valencia 46/123' });
    await log.getByRole('cell', { name: 'summary' }).waitFor();
    expect(await log.getByRole('cell', { name: 'ok', exact: true }).count()).toBe(1);
    await grants.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke the access for ITSS Valencia 46/123?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await grants.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await http('GET', new URL(link).pathname.replace(/$/, '/api/summary'))).status).toBe(404);
    expect(await axeViolations(page)).toEqual([]);
    await shot('registry');
  });

  it('generates the workers’ monthly documents as XLSX from the report form', async () => {
    await open('reports', 'Reports');
    await page.getByLabel('Report', { exact: true }).selectOption('time_registry_worker_monthly');
    await page.getByLabel('Month').fill('2026-10');
    await page.getByLabel('Format').selectOption('xlsx');
    await page.getByLabel('Language of the documents').selectOption('en');
    await page.getByRole('button', { name: 'Request report' }).click();
    const row = page.getByRole('row', { name: /Workers’ monthly documents \(XLSX\)/ });
    await row.getByRole('cell', { name: 'completed' }).waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('worker-registry-2026-10.xlsx');
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(await row.textContent()).toContain('month October 2026, language en');
  });

  it('shows the integration settings and warns before switching the addon off', async () => {
    await open('settings', 'Settings');
    await page.getByText('Rate limits').waitFor();
    expect(await page.getByRole('region', { name: 'Subscription and limits' }).textContent()).toContain(
      'live 120/min per key',
    );
    await page.getByRole('button', { name: 'Switch the addon off' }).click();
    const warning = page.getByRole('dialog', { name: 'Switch the public API addon off?' });
    expect(await warning.textContent()).toContain('every API key, live and test, is revoked');
    // Focus starts on Cancel: pressing Enter at once does not destroy anything.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await shot('settings-addon-warning');
    await page.keyboard.press('Escape');
    await expect.poll(() => warning.isVisible()).toBe(false);
    await shot('settings');
    // Cancelled: the key still works.
    expect((await http('GET', '/v1/organization', undefined, liveKey)).status).toBe(200);
  });

  it('fits a phone-width screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [screen, heading] of [
      ['home', 'Today'],
      ['keys', 'API keys'],
      ['webhooks', 'Webhooks'],
      ['absences', 'Team calendar'],
      ['employees', 'Employees'],
      ['check-ins', 'Time records'],
      ['reports', 'Reports'],
      ['registry', 'Registry'],
      ['settings', 'Settings'],
    ] as const) {
      await open(screen, heading);
      // Choosing a screen folds the menu again.
      expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('link', { name: 'Webhooks' }).isVisible()).toBe(false);
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflowing()).toEqual([]);
      expect(overflow).toBeLessThanOrEqual(0);
      // The screen loaded: no refusal on it.
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shot(`phone-${screen}`);
    }
    // The menu, open: every screen in one column; Escape folds it and gives the focus back to its button.
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await page.getByRole('link', { name: 'Webhooks' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot('phone-menu');
    await page.getByRole('link', { name: 'Webhooks' }).focus();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-toggle'))).toBe(true);
  });
});

/** The Spanish screens (the company's default): every text translated, dates and numbers the Spanish way. */
describe('the dashboard in Spanish', () => {
  const SCREENS_ES = [
    ['home', 'Hoy'],
    ['keys', 'Claves de API'],
    ['webhooks', 'Webhooks'],
    ['absences', 'Calendario del equipo'],
    ['employees', 'Empleados'],
    ['check-ins', 'Registros de jornada'],
    ['reports', 'Informes'],
    ['registry', 'Registro'],
    ['settings', 'Ajustes'],
  ] as const;
  const openEs = async (screen: string, heading: string) => {
    const menu = page.getByRole('button', { name: 'Menú' });
    if (await menu.isVisible()) await menu.click();
    await page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: heading, exact: true })
      .click();
    await expect.poll(() => page.url()).toContain(`#/${screen}`);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
  };
  /**
   * Texts left in English: any text node, label, title or placeholder on the page that is exactly one of the
   * dashboard's English texts whose Spanish differs (the catalogue's keys).
   */
  const untranslated = async () => {
    const { dashboardKeys } = await import('../helpers/dashboard-keys.ts');
    const { es } = await import('../../dashboard/src/locales/es.ts');
    const english = [...dashboardKeys().keys()].filter((key) => es[key] !== undefined && es[key] !== key);
    return await page.evaluate((keys) => {
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
    }, english);
  };

  it('switches back to Spanish and shows every screen translated, at 1440 px', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Cambiar a español' }).click();
    await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    for (const [screen, heading] of SCREENS_ES) {
      await openEs(screen, heading);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await untranslated()).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await shot(`es-${screen}`);
    }
  });

  it('says dates, months and numbers the Spanish way, in the company’s zone, labelled', async () => {
    await openEs('absences', 'Calendario del equipo');
    await page.getByLabel('Mes', { exact: true }).fill('2026-12');
    const calendar = page.getByRole('region', { name: 'Calendario del equipo, diciembre de 2026' });
    await expect.poll(() => calendar.getByText('Vacation, aprobada').count()).toBe(3);
    await openEs('registry', 'Registro');
    const months = page.getByRole('region', { name: 'Meses cerrados' });
    await months.getByRole('cell', { name: 'octubre de 2026', exact: true }).waitFor();
    // An instant: day, month, year, the 24-hour time and the zone's name (Madrid: CET in winter).
    expect(await months.getByRole('row').nth(1).textContent()).toMatch(/\d{1,2} \w{3} 2026, \d{2}:\d{2} CET/);
    await openEs('settings', 'Ajustes');
    // Numbers with the Spanish grouping.
    expect(await page.getByRole('region', { name: 'Suscripción y límites' }).textContent()).toMatch(
      /\d+ de \d{1,3}(\.\d{3})* en uso|de \d+ en uso/,
    );
  });

  it('shows every problem of a refused form in Spanish, by field', async () => {
    await openEs('keys', 'Claves de API');
    await page.getByRole('button', { name: 'Crear clave' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Revisa este campo:');
    expect(await page.getByRole('alert').textContent()).toContain('Permisos: necesita al menos 1 elemento.');
    expect(await page.locator('#scopes-error').textContent()).toBe('Permisos: necesita al menos 1 elemento.');
    await shot('es-keys-field-error');
    await openEs('settings', 'Ajustes');
    const identity = page.getByRole('form', { name: 'Datos legales' });
    await identity.getByLabel('CIF/NIF').fill('B12345675');
    await identity.getByRole('button', { name: 'Guardar datos legales' }).click();
    await expect
      .poll(() => identity.locator('.field-error').textContent())
      .toBe('CIF/NIF: no es un CIF o NIF válido (revisa el carácter de control).');
    expect(await identity.getByLabel('CIF/NIF').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await shot('es-settings-field-error');
  });

  it('fits a phone in Spanish: a menu, tables as lists, nothing off-screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [screen, heading] of SCREENS_ES) {
      await openEs(screen, heading);
      expect(await page.getByRole('button', { name: 'Menú' }).getAttribute('aria-expanded')).toBe('false');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflowing()).toEqual([]);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await untranslated()).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await shot(`es-phone-${screen}`);
    }
    // A data table is a list of cards: its header row hidden, each value under its column's name, and every
    // action inside the screen's width.
    await openEs('employees', 'Empleados');
    await page.locator('main table.stack tbody tr').first().waitFor();
    const cards = await page.evaluate(() => {
      const table = document.querySelector('main table.stack') as HTMLTableElement;
      const cell = table.tBodies[0]?.rows[0]?.cells[0] as HTMLTableCellElement;
      const button = table.querySelector('tbody button') as HTMLButtonElement;
      return {
        header: getComputedStyle(table.tHead as HTMLElement).position,
        row: getComputedStyle(table.tBodies[0]?.rows[0] as HTMLElement).display,
        label: getComputedStyle(cell, '::before').content,
        button: button.getBoundingClientRect().right <= window.innerWidth,
      };
    });
    expect(cards).toEqual({ header: 'absolute', row: 'block', label: '"Nombre"', button: true });
  });
});
