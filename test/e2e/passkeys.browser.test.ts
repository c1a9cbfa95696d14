import path from 'node:path';
import { sql } from 'kysely';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPhone, pageChecks } from '../helpers/browser.ts';
import { keepFailures } from '../helpers/browser-failures.ts';
import { startServedApp } from '../helpers/served-app.ts';
import { companyWithInvitedWorker, E2E_ADMIN_TOKEN, type httpClient } from '../helpers/service.ts';
import { rewriteChainEntry } from '../helpers/tamper.ts';

/**
 * Passkeys in Chromium (issue 35), with the DevTools virtual authenticator (WebAuthn.addVirtualAuthenticator)
 * as the worker's phone and the administrator's laptop, against a real `jornada serve` at localhost (WebAuthn
 * wants a domain). The worker registers a passkey in the portal at phone width, signs in with it, and accepts a
 * correction, which the device signs; the registry's verification checks the stored assertion and names a forged
 * one. The administrator registers one in the dashboard and signs in with it. axe-core on every screen;
 * screenshots in Spanish and English go to test-results/passkeys/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/passkeys');
const PASSWORD = 'mi contraseña de prueba';

let served: Awaited<ReturnType<typeof startServedApp>> | undefined;
let browser: Browser;
let page: Page;
keepFailures(() => page, SHOTS);
let http: ReturnType<typeof httpClient>;
let liveKey = '';
let companyId = '';
let employeeId = '';
let invitation = '';

/** A platform authenticator with user verification, as a phone's or a laptop's. */
async function virtualAuthenticator(on: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await on.context().newCDPSession(on);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

beforeAll(async () => {
  served = await startServedApp('passkeys', {}, { host: 'localhost' });
  http = served.http;
  ({ companyId, liveKey, employeeId, invitation } = await companyWithInvitedWorker(http, 'Ferretería Luna', {
    first_name: 'Marta',
    last_name: 'Llave',
    email: 'marta.llave@example.com',
    hire_date: '2026-01-01',
  }));

  ({ browser, page } = await openPhone(15_000));
  ({ shot, accessible } = await pageChecks(SHOTS, () => page));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

let shot: Awaited<ReturnType<typeof pageChecks>>['shot'];
let accessible: Awaited<ReturnType<typeof pageChecks>>['accessible'];
const tab = async (name: string, heading = name) => {
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

describe('a worker’s passkey in the portal, at phone width', () => {
  let device: { cdp: CDPSession; authenticatorId: string };

  it('registers a passkey from the Account tab', async () => {
    device = await virtualAuthenticator(page);
    await page.goto(invitation);
    await page.getByLabel('Contraseña (12 caracteres o más)').fill(PASSWORD);
    await page.getByLabel('Repite la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear contraseña y entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hola, Marta' }).waitFor();

    await tab('Cuenta', 'Llaves de acceso');
    await page.getByText('Aún no tienes ninguna llave de acceso.').waitFor();
    await accessible();
    await shot('phone-account-empty-es');
    await page.getByLabel('Nombre de la llave').fill('Móvil de Marta');
    await page.getByRole('button', { name: 'Crear una llave de acceso en este dispositivo' }).click();
    await page.getByRole('status').getByText('Llave de acceso creada.').waitFor();
    await page.locator('.passkeys li', { hasText: 'Móvil de Marta' }).waitFor();
    const { credentials } = await device.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: device.authenticatorId,
    });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await accessible();
    await shot('phone-account-passkey-es');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Passkeys' }).waitFor();
    await accessible();
    await shot('phone-account-passkey-en');
    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Llaves de acceso' }).waitFor();
  });

  it('signs in with the passkey, without email or password', async () => {
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await accessible();
    await shot('phone-login-es');
    await page.getByRole('button', { name: 'Entrar con una llave de acceso' }).click();
    // Back where the worker was (the Account tab), with the sign-in noted on the passkey.
    await page.getByRole('heading', { level: 1, name: 'Llaves de acceso' }).waitFor();
    await page.getByText(/Usada por última vez/).waitFor();
    await tab('Hoy', 'Hola, Marta');
  });

  it('accepts a correction, signed by the device, and verification checks the signature', async () => {
    const correction = await http(
      'POST',
      '/v1/check-in-corrections',
      {
        employee_id: employeeId,
        reason: 'Entrada olvidada el lunes',
        add: [
          { type: 'in', timestamp: '2026-11-02T08:00:00Z' },
          { type: 'out', timestamp: '2026-11-02T16:00:00Z' },
        ],
      },
      liveKey,
    );
    expect(correction.status, correction.text).toBe(201);
    await tab('Correcciones');
    const card = page.locator('article.correction', { hasText: 'Entrada olvidada el lunes' });
    await card.getByRole('button', { name: 'Aceptar' }).waitFor();
    await card.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => card.textContent()).toContain('Espera la aprobación de la empresa');
    await accessible();
    await shot('phone-correction-signed-es');

    const after = await http('GET', `/v1/check-in-corrections/${correction.body.id}`, undefined, liveKey);
    expect(after.body.employee_approval).toMatchObject({ by: { type: 'employee', id: employeeId } });
    const entry = (
      await sql<{ seq: string; content: string }>`
        select seq, content from registry_entries
        where company_id = ${companyId} and employee_id = ${employeeId} and kind = 'correction_accepted'`.execute(
        served?.db as NonNullable<typeof served>['db'],
      )
    ).rows[0];
    const content = JSON.parse(entry?.content ?? '{}');
    expect(content.signature.approval).toMatchObject({
      action: 'correction_accepted',
      correction_id: correction.body.id,
      employee_id: employeeId,
    });
    expect(content.by.credential).toMatchObject({ kind: 'passkey' });
    const verify = () =>
      http('GET', `/admin/v1/registry/verify?company_id=${companyId}`, undefined, E2E_ADMIN_TOKEN);
    const clean = await verify();
    expect(clean.status, clean.text).toBe(200);
    expect(clean.body.problems).toEqual([]);

    // An operator flips one byte of the device's signature and re-links the chain: verification names it.
    await rewriteChainEntry(
      served?.db as NonNullable<typeof served>['db'],
      { companyId, employeeId, seq: Number(entry?.seq) },
      (stored) => {
        const signature = stored.signature as { assertion: { response: { signature: string } } };
        const bytes = Buffer.from(signature.assertion.response.signature, 'base64url');
        bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
        signature.assertion.response.signature = bytes.toString('base64url');
      },
    );
    const forged = await verify();
    expect(forged.body.problems).toEqual([
      expect.objectContaining({
        kind: 'approval_signature',
        employee_id: employeeId,
        entry: Number(entry?.seq),
      }),
    ]);
  });
});

describe('an administrator’s passkey in the dashboard', () => {
  it('registers one in Settings and signs in with it', async () => {
    const login = { email: 'admin.llave@example.com', password: 'a long dashboard password' };
    const admin = await http('POST', `/admin/v1/companies/${companyId}/admins`, login, E2E_ADMIN_TOKEN);
    expect(admin.status, admin.text).toBe(201);
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const tabPage = await desktop.newPage();
    tabPage.setDefaultTimeout(15_000);
    await virtualAuthenticator(tabPage);
    await tabPage.goto(`${served?.base}/dashboard`);
    await tabPage.getByLabel(/^(Email|Correo electrónico)$/).fill(login.email);
    await tabPage.getByLabel(/^(Password|Contraseña)$/).fill(login.password);
    await tabPage.getByRole('button', { name: /^(Log in|Entrar)$/ }).click();
    await tabPage.getByRole('navigation').first().waitFor();
    await tabPage.goto(`${served?.base}/dashboard#/settings`);
    // The section (its table is a region of the same name, inside it).
    const section = tabPage.getByRole('region', { name: /^(Your passkeys|Tus llaves de acceso)$/ }).first();
    await section.waitFor();
    await section.getByLabel(/^(Name of the passkey|Nombre de la llave de acceso)$/).fill('Portátil');
    await section
      .getByRole('button', {
        name: /^(Create a passkey on this device|Crear una llave de acceso en este dispositivo)$/,
      })
      .click();
    await section.getByRole('status').waitFor();
    await section.getByRole('cell', { name: 'Portátil', exact: true }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await accessible(tabPage);
    await section.screenshot({ path: path.join(SHOTS, 'desktop-dashboard-passkeys-es.png') });
    await tabPage.getByRole('button', { name: 'Switch to English' }).click();
    await tabPage.getByRole('heading', { level: 2, name: 'Your passkeys' }).waitFor();
    await accessible(tabPage);
    await section.screenshot({ path: path.join(SHOTS, 'desktop-dashboard-passkeys-en.png') });

    await tabPage.getByRole('button', { name: /^(Log out|Cerrar sesión)$/ }).click();
    const withPasskey = tabPage.getByRole('button', {
      name: /^(Log in with a passkey|Entrar con una llave de acceso)$/,
    });
    await withPasskey.waitFor();
    await accessible(tabPage);
    await tabPage.screenshot({ path: path.join(SHOTS, 'desktop-dashboard-login-en.png'), fullPage: true });
    await withPasskey.click();
    await tabPage.getByRole('button', { name: /^(Log out|Cerrar sesión)$/ }).waitFor();
    await desktop.close();
  });
});
