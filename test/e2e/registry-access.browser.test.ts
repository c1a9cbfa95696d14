/// <reference lib="dom" />
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe.ts';
import { launchChromium } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { startServedApp } from '../helpers/served-app.ts';
import { companyWithLiveKey, type httpClient } from '../helpers/service.ts';

/**
 * The read-only registry behind an access link, in Chromium against a real `jornada serve`: the Inspección lists
 * the workers, opens a month and downloads its PDF; the representatives never see an interval or a national id;
 * a revoked link shows nothing. axe-core on each view; screenshots in test-results/registry-access/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/registry-access');

let served: Awaited<ReturnType<typeof startServedApp>> | undefined;
let browser: Browser;
let page: Page;
keepFailures(() => page, SHOTS);
let http: ReturnType<typeof httpClient>;
let liveKey = '';
let employeeId = '';

beforeAll(async () => {
  served = await startServedApp('access');
  http = served.http;
  ({ liveKey } = await companyWithLiveKey(http, 'Panadería Sol', [
    'org:empleados:write',
    'org:fichajes:write',
    'org:informes:read',
  ]));
  const employee = await http(
    'POST',
    '/v1/employees',
    {
      first_name: 'Núria',
      last_name: 'Ibáñez',
      email: 'nuria@example.com',
      hire_date: '2026-01-01',
      national_id: '12345678Z',
    },
    liveKey,
  );
  expect(employee.status, employee.text).toBe(201);
  employeeId = employee.body.id;
  for (const [type, timestamp] of [
    ['in', '2026-10-08T22:00:00+02:00'],
    ['out', '2026-10-09T06:30:00+02:00'],
  ]) {
    const response = await http(
      'POST',
      '/v1/check-ins',
      { employee_id: employeeId, type, timestamp },
      liveKey,
    );
    expect(response.status, response.text).toBe(201);
  }
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const grant = async (kind: 'inspection' | 'representatives') => {
  const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const response = await http(
    'POST',
    '/v1/registry/access-grants',
    {
      kind,
      label: kind === 'inspection' ? 'ITSS 46/123' : 'Comité',
      from: '2026-10-01',
      to: '2026-10-31',
      expires_at: expires,
    },
    liveKey,
  );
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; url: string };
};
const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

describe('the registry behind an access link', () => {
  it('lets the Inspección list the workers, open a month and download its PDF', async () => {
    const inspection = await grant('inspection');
    await page.goto(inspection.url);
    await page.getByRole('heading', { level: 1, name: 'Registro de jornada' }).waitFor();
    await page.getByRole('rowheader', { name: 'Núria Ibáñez' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Ver octubre de 2026 de Núria Ibáñez' }).click();
    const month = page.getByRole('region', { name: 'Núria Ibáñez · octubre de 2026' });
    await month.getByText('22:00-06:30 (+1)').waitFor();
    // What the worker's document prints (issue 34): the contract, the policy, and each record someone else made
    // with who recorded it and when (here the integration recorded both).
    expect(await month.textContent()).toContain('Jornada contratada40:00 h/semana');
    expect(await month.textContent()).toContain('cuentan, marcados');
    const others = month.getByRole('listitem');
    expect(await others.count()).toBe(2);
    expect(await others.first().textContent()).toMatch(
      /^2026-10-08 22:00 entrada; registrado por la integración “[^”]+” el \d{4}-\d\d-\d\d \d\d:\d\d; sin respuesta/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot('inspection-month');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('phone-inspection-month');
    await page.setViewportSize({ width: 1280, height: 900 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      month.getByRole('link', { name: 'Descargar el documento (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`registro-2026-10-${employeeId}.pdf`);
    const pdf = await readFile((await download.path()) as string);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Registro de octubre de 2026 (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('registro-2026-10.csv');
    expect(await readFile((await csv.path()) as string, 'utf8')).toContain('22:00-06:30 (+1)');
    const accesses = await http(
      'GET',
      `/v1/registry/access-grants/${inspection.id}/accesses`,
      undefined,
      liveKey,
    );
    expect(accesses.body.data.map((row: { what: string }) => row.what)).toEqual([
      'summary',
      `worker ${employeeId} 2026-10`,
      `pdf ${employeeId} 2026-10`,
      'csv 2026-10',
    ]);
  });

  it('shows the representatives totals by name, never an interval or a national id', async () => {
    const representatives = await grant('representatives');
    await page.goto(representatives.url);
    await page.getByText('Acceso de la representación legal · Comité').waitFor();
    await page.getByRole('button', { name: 'Ver octubre de 2026 de Núria Ibáñez' }).click();
    const month = page.getByRole('region', { name: 'Núria Ibáñez · octubre de 2026' });
    await month.getByText('8:30', { exact: true }).first().waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).not.toContain('22:00');
    expect(text).not.toContain('12345678Z');
    expect(await month.getByRole('link').count()).toBe(0);
    // Their download is the month's totals by name.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Totales de octubre de 2026 (CSV)' }).click(),
    ]);
    const totals = await readFile((await csv.path()) as string, 'utf8');
    expect(totals).toContain('Núria Ibáñez,2026-10,510,8:30');
    expect(totals).not.toContain('22:00');
    expect(totals).not.toContain('12345678Z');
    expect(await axeViolations(page)).toEqual([]);
    await shot('representatives-month');
    // The same view at phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axeViolations(page)).toEqual([]);
    await shot('phone-representatives-month');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows nothing once the link is revoked', async () => {
    const inspection = await grant('inspection');
    expect(
      (await http('DELETE', `/v1/registry/access-grants/${inspection.id}`, undefined, liveKey)).status,
    ).toBe(204);
    await page.goto(inspection.url);
    await page.getByRole('heading', { level: 1, name: 'Enlace no disponible' }).waitFor();
    expect(await page.locator('body').textContent()).not.toContain('Núria');
  });
});
