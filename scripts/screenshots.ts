/**
 * Copies the dashboard's screenshots from the browser test's output (test-results/dashboard/, written by
 * test/e2e/dashboard.browser.test.ts) into docs/screenshots/, one per screen, language and width, under the
 * names the README shows. Run it after the browser test: `npm run screenshots`.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

const FROM = path.resolve(import.meta.dirname, '../test-results/dashboard');
const TO = path.resolve(import.meta.dirname, '../docs/screenshots');

/** Each screen: the English desktop shot that shows it best, and the screen's path (the other shots' names). */
const SCREENS: Array<[screen: string, englishDesktop: string]> = [
  ['home', 'home'],
  ['keys', 'api-keys'],
  ['webhooks', 'webhooks'],
  ['absences', 'team-calendar-approve'],
  ['employees', 'employee-contract'],
  ['check-ins', 'time-records-corrections'],
  ['reports', 'reports'],
  ['registry', 'registry'],
  ['settings', 'settings-company'],
];

await rm(TO, { recursive: true, force: true });
await mkdir(TO, { recursive: true });
const copies: Array<[string, string]> = [['phone-menu', 'en-phone-menu']];
for (const [screen, english] of SCREENS) {
  copies.push([english, `en-desktop-${screen}`]);
  copies.push([`phone-${screen}`, `en-phone-${screen}`]);
  copies.push([`es-${screen}`, `es-desktop-${screen}`]);
  copies.push([`es-phone-${screen}`, `es-phone-${screen}`]);
}
for (const [source, target] of copies) {
  await copyFile(path.join(FROM, `${source}.png`), path.join(TO, `${target}.png`));
}
console.log(`${copies.length} screenshots in docs/screenshots/`);
