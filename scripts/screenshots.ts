/**
 * Copies the dashboard's screenshots from the browser test's output (test-results/dashboard/, written by
 * test/e2e/dashboard-journeys.ts) into docs/screenshots/: every screen in both languages at both widths
 * (`en-desktop-home.png`, `es-phone-registry.png`…, the phone menu) and a few moments of the jobs the README
 * shows. Run it after the browser test: `npm run screenshots`.
 */
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

const FROM = path.resolve(import.meta.dirname, '../test-results/dashboard');
const TO = path.resolve(import.meta.dirname, '../docs/screenshots');
const SCREEN =
  /^(en|es)-(desktop|phone)-(home|keys|webhooks|absences|employees|check-ins|reports|registry|settings|menu)\.png$/;
/** Moments of the jobs the README shows beside the screens. */
const JOBS = [
  'en-desktop-job-team-calendar-approve.png',
  'en-desktop-job-employee-contract.png',
  'es-phone-job-team-calendar-approve.png',
  'es-desktop-job-settings-field-error.png',
];

const files = (await readdir(FROM)).filter((name) => SCREEN.test(name) || JOBS.includes(name));
await rm(TO, { recursive: true, force: true });
await mkdir(TO, { recursive: true });
for (const name of files) await copyFile(path.join(FROM, name), path.join(TO, name));
console.log(`${files.length} screenshots in docs/screenshots/`);
