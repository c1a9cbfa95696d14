import { accessSync, constants } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEBIAN_CHROMIUM, launchChromium, resolveChromium } from '../helpers/browser.ts';

describe('the browser tests find a Chromium without any install step', () => {
  it('uses CHROMIUM_PATH when set, and refuses one that does not exist', async () => {
    expect(await resolveChromium({ CHROMIUM_PATH: '/opt/c/chrome' }, () => true)).toEqual({
      source: 'CHROMIUM_PATH',
      executablePath: '/opt/c/chrome',
    });
    await expect(resolveChromium({ CHROMIUM_PATH: '/nowhere/chrome' }, () => false)).rejects.toThrow(
      'does not exist',
    );
  });

  it("prefers Debian's Chromium when it is installed", async () => {
    const found = await resolveChromium({}, (file) => file === DEBIAN_CHROMIUM);
    expect(found).toEqual({ source: 'debian', executablePath: DEBIAN_CHROMIUM });
  });

  it('falls back to the Chromium shipped inside an npm package, which launches and renders', async () => {
    const found = await resolveChromium({}, () => false);
    expect(found.source).toBe('npm');
    accessSync(found.executablePath, constants.X_OK);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>Jornada</h1></main>');
      expect(await page.textContent('h1')).toBe('Jornada');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
