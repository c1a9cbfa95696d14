import { createDb } from '../../src/db/database.ts';
import { ensureInstanceSecret } from '../../src/db/instance-secret.ts';
import { reportGenerationJob } from '../../src/jobs/report-generation.ts';
import { xlsxDocumentsStream } from '../../src/modules/reports/document-xlsx.ts';
import { pdfStream } from '../../src/modules/reports/pdf.ts';
import { createReport } from '../../src/modules/reports/reports.service.ts';
import { fileStore } from '../../src/modules/reports/store.ts';
import { workerMonthlyDocuments } from '../../src/modules/reports/worker-documents.ts';
import { CursorCodec, cursorKey } from '../../src/platform/pagination.ts';
import { systemClock } from '../../src/time/clock.ts';

/**
 * One report generated in a fresh process, so that its peak RSS is the generation's own:
 * `node bench/lib/report-child.ts <database url> <store dir> <company id> <json {type, format, params}>`.
 * Prints `{ seconds, rows, bytes, maxRssMb }`.
 *
 * With `{ documents: { format, month, first } }` instead, it streams the first `first` workers' documents of the
 * month through the same document writers straight into the file store (the job has no worker subset), so that
 * 200 and 2,000 workers can be compared.
 */
const [url, storeDir, companyId, requestJson] = process.argv.slice(2) as [string, string, string, string];
const db = createDb(url, { max: 4 });
const store = fileStore(storeDir);
const cursors = new CursorCodec(cursorKey(await ensureInstanceSecret(db)));
const tenant = { companyId, accountId: companyId, timezone: 'Europe/Madrid' };
const request = JSON.parse(requestJson);
if (request.documents) {
  const { format, month, first } = request.documents as {
    format: 'pdf' | 'xlsx';
    month: string;
    first: number;
  };
  const counter = { rows: 0 };
  // The live set: with --expose-gc, memory after a full collection every 50 documents (heap and buffers), its
  // maximum. Peak RSS also counts garbage V8 has not collected yet, which depends on its heap-sizing heuristics.
  const gc = (globalThis as { gc?: () => void }).gc;
  let liveMb = 0;
  const sample = () => {
    if (!gc) return;
    gc();
    const memory = process.memoryUsage();
    liveMb = Math.max(liveMb, (memory.heapUsed + memory.external) / 1024 / 1024);
  };
  async function* firstDocuments() {
    let taken = 0;
    for await (const document of workerMonthlyDocuments(db, systemClock, cursors, tenant, { month })) {
      yield document;
      taken += 1;
      if (taken % 50 === 0) sample();
      if (taken >= first) return;
    }
  }
  const started = performance.now();
  const stream = (format === 'pdf' ? pdfStream : xlsxDocumentsStream)(firstDocuments(), {
    locale: 'es',
    generatedAt: systemClock.now(),
    counter,
  });
  const key = `bench-documents.${format}`;
  await store.put(key, stream);
  const seconds = (performance.now() - started) / 1000;
  let bytes = 0;
  for await (const chunk of (await store.get(key)) ?? []) bytes += (chunk as Buffer).length;
  await store.delete(key);
  await db.destroy();
  process.stdout.write(
    `${JSON.stringify({ seconds, rows: counter.rows, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024, liveMb })}\n`,
  );
  process.exit(0);
}
const { id } = await createReport({ db, clock: systemClock }, tenant, request);
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
