import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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

/** A headless Chromium with no background traffic (this machine has no network beyond loopback). */
export async function launchChromium(): Promise<Browser> {
  const { executablePath } = await resolveChromium();
  return await chromium.launch({
    executablePath,
    args: [
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
