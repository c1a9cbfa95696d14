import { startBenchCluster } from './lib/cluster.ts';
import { checkInsSuite } from './suites/check-ins.ts';
import { exportsUnderLoadSuite } from './suites/exports-under-load.ts';
import { kiosksSuite } from './suites/kiosks.ts';
import { monthCloseSuite } from './suites/month-close.ts';
import { operationsSuite } from './suites/operations.ts';
import { platformSuite } from './suites/platform.ts';
import { reportsSuite } from './suites/reports.ts';
import { shiftsSuite } from './suites/shifts.ts';
import { startupSuite } from './suites/startup.ts';
import { verifySuite } from './suites/verify.ts';
import { webhooksSuite } from './suites/webhooks.ts';
import { workSummariesSuite } from './suites/work-summaries.ts';

/**
 * `npm run bench [suite…]`: runs the named suites (default: all) on the bench cluster, prints their figures,
 * and exits 1 when a suite's target is missed. Figures are recorded in docs/performance.md.
 */
const SUITES = {
  'check-ins': checkInsSuite,
  'work-summaries': workSummariesSuite,
  webhooks: webhooksSuite,
  reports: reportsSuite,
  platform: platformSuite,
  'exports-under-load': exportsUnderLoadSuite,
  verify: verifySuite,
  operations: operationsSuite,
  shifts: shiftsSuite,
  'month-close': monthCloseSuite,
  kiosks: kiosksSuite,
  startup: startupSuite,
} as const;

const requested = process.argv.slice(2);
const names = (requested.length > 0 ? requested : Object.keys(SUITES)) as Array<keyof typeof SUITES>;
for (const name of names) {
  if (!(name in SUITES)) {
    console.error(`unknown suite ${name}; known: ${Object.keys(SUITES).join(', ')}`);
    process.exit(2);
  }
}

const cluster = await startBenchCluster();
const failures: string[] = [];
try {
  for (const name of names) {
    console.log(`\n== ${name}`);
    failures.push(...(await SUITES[name](cluster)));
  }
} finally {
  await cluster.stop();
}
if (failures.length > 0) {
  console.error(
    `\n${failures.length} target(s) missed:\n${failures.map((failure) => `- ${failure}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('\nall targets met');
