/**
 * Copies the dashboard's screenshots from the browser test's output (test-results/dashboard/, written by
 * test/e2e/dashboard-journeys.ts) into docs/screenshots/: every screen in both languages at both widths
 * (`en-desktop-home.png`, `es-phone-registry.png`…, the phone menu) and a few moments of the jobs the README
 * shows, and a few of the portal's. Run it after the browser tests: `npm run screenshots`.
 */
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

const FROM = path.resolve(import.meta.dirname, '../test-results/dashboard');
const TO = path.resolve(import.meta.dirname, '../docs/screenshots');
const SCREEN =
  /^(en|es)-(desktop|phone)-(home|keys|webhooks|absences|planner|employees|check-ins|reports|registry|settings|menu)\.png$/;
/** Moments of the jobs the README shows beside the screens. */
const JOBS = [
  'en-desktop-job-team-calendar-approve.png',
  'en-desktop-job-employee-contract.png',
  'es-phone-job-team-calendar-approve.png',
  'es-desktop-job-settings-field-error.png',
  'en-desktop-job-planner-draft.png',
  'es-phone-job-planner-draft.png',
  'es-desktop-job-planner-published.png',
  // Issue 39: roles, a team lead's calendar, an import with a wrong row.
  'en-desktop-job-settings-roles.png',
  'es-desktop-job-team-lead-calendar.png',
  'es-phone-job-team-lead-calendar.png',
  'es-phone-job-employees-import-errors.png',
  'en-desktop-job-employees-import-errors.png',
];

/** The portal's screens the docs show (test/e2e/portal.browser.test.ts writes test-results/portal/). */
const PORTAL_FROM = path.resolve(import.meta.dirname, '../test-results/portal');
const PORTAL: Record<string, string> = {
  'phone-records-by-others.png': 'es-phone-portal-records-by-others.png',
  'phone-records-by-others-english.png': 'en-phone-portal-records-by-others.png',
  'phone-missed-clock-out.png': 'es-phone-portal-missed-clock-out.png',
  'phone-missed-clock-out-english.png': 'en-phone-portal-missed-clock-out.png',
  'phone-shifts.png': 'es-phone-portal-shifts.png',
  'phone-shifts-english.png': 'en-phone-portal-shifts.png',
  'phone-absences.png': 'es-phone-portal-absences.png',
  'phone-absences-english.png': 'en-phone-portal-absences.png',
  'phone-inbox.png': 'es-phone-portal-inbox.png',
};

const files = (await readdir(FROM)).filter((name) => SCREEN.test(name) || JOBS.includes(name));
await rm(TO, { recursive: true, force: true });
await mkdir(TO, { recursive: true });
for (const name of files) await copyFile(path.join(FROM, name), path.join(TO, name));
for (const [from, to] of Object.entries(PORTAL))
  await copyFile(path.join(PORTAL_FROM, from), path.join(TO, to));
console.log(`${files.length + Object.keys(PORTAL).length} screenshots in docs/screenshots/`);
