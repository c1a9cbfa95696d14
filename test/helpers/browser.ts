import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe.ts';

/** Debian's Chromium, where the machine has it. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export type ChromiumSource = 'CHROMIUM_PATH' | 'debian' | 'npm';

/**
 * Which Chromium the browser tests drive: CHROMIUM_PATH when set, else Debian's when installed, else the one
 * shipped inside the npm package @sparticuz/chromium (its compressed binary is unpacked into the temp dir on
 * first use). Nothing is downloaded, at install or at run time.
 */
export async function resolveChromium(
  env: NodeJS.ProcessEnv = process.env,
  exists: (file: string) => boolean = existsSync,
): Promise<{ source: ChromiumSource; executablePath: string }> {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!exists(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    return { source: 'CHROMIUM_PATH', executablePath: configured };
  }
  if (exists(DEBIAN_CHROMIUM)) return { source: 'debian', executablePath: DEBIAN_CHROMIUM };
  const shipped = (await import('@sparticuz/chromium')).default;
  return { source: 'npm', executablePath: await shipped.executablePath() };
}

/**
 * A headless Chromium with no background traffic (this machine has no network beyond loopback); `extraArgs` adds
 * switches (a fake camera).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const { executablePath } = await resolveChromium();
  return await chromium.launch({
    executablePath,
    args: [
      ...extraArgs,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A phone-sized page (390×844, touch) in a fresh Chromium, with the default timeout set; downloads accepted. */
export async function openPhone(
  timeoutMs = 10_000,
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  return { browser, context, page };
}

/** A browser test's screenshots (into `dir`, made first) and its axe-core check, of its current page by default. */
export async function pageChecks(dir: string, current: () => Page) {
  await mkdir(dir, { recursive: true });
  return {
    shot: (name: string, on: Page = current()) =>
      on.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true }),
    accessible: async (on: Page = current()) => expect(await axeViolations(on)).toEqual([]),
  };
}
