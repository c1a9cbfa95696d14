import { createDb } from '../../src/db/database.ts';
import { ensureInstanceSecret } from '../../src/db/instance-secret.ts';
import { reportGenerationJob } from '../../src/jobs/report-generation.ts';
import { createReport } from '../../src/modules/reports/reports.service.ts';
import { fileStore } from '../../src/modules/reports/store.ts';
import { CursorCodec } from '../../src/platform/pagination.ts';
import { deriveKey } from '../../src/platform/secrets.ts';
import { systemClock } from '../../src/time/clock.ts';

/**
 * One report generated in a fresh process, so that its peak RSS is the generation's own:
 * `node bench/lib/report-child.ts <database url> <store dir> <company id> <json {type, format, params}>`.
 * Prints `{ seconds, rows, bytes, maxRssMb }`.
 */
const [url, storeDir, companyId, requestJson] = process.argv.slice(2) as [string, string, string, string];
const db = createDb(url, { max: 4 });
const store = fileStore(storeDir);
const cursors = new CursorCodec(deriveKey(await ensureInstanceSecret(db), 'cursor'));
const tenant = { companyId, accountId: companyId, timezone: 'Europe/Madrid' };
const { id } = await createReport({ db, clock: systemClock }, tenant, JSON.parse(requestJson));
const started = performance.now();
await reportGenerationJob({ db, clock: systemClock, cursors, store }).tick();
const seconds = (performance.now() - started) / 1000;
const report = await db
  .selectFrom('reports')
  .select(['status', 'row_count', 'storage_key'])
  .where('id', '=', id)
  .executeTakeFirstOrThrow();
if (report.status !== 'completed' || !report.storage_key) throw new Error(`report ${id} is ${report.status}`);
const file = await store.get(report.storage_key);
let bytes = 0;
for await (const chunk of file ?? []) bytes += (chunk as Buffer).length;
await store.delete(report.storage_key);
await db.destroy();
process.stdout.write(
  `${JSON.stringify({ seconds, rows: report.row_count, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
