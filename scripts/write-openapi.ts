/**
 * Regenerates openapi-v1.json (and admin-openapi-v1.json) from the route schemas: `npm run openapi`.
 * The app is built without a database connection; only the route declarations are read.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { createDb } from '../src/db/database.ts';
import { SyncHorizon } from '../src/db/sync-stamp.ts';
import { sealedDocuments } from '../src/modules/month-documents/month-documents.service.ts';
import { fileStore } from '../src/modules/reports/store.ts';
import { systemResolver } from '../src/modules/webhooks/target.ts';
import { CursorCodec } from '../src/platform/pagination.ts';
import { systemClock } from '../src/time/clock.ts';

export async function renderOpenApi(): Promise<{ public: string; admin: string }> {
  const db = createDb('postgresql://unused@127.0.0.1:1/unused', { max: 1 });
  const app = await buildApp({
    db,
    clock: systemClock,
    fakeClock: null,
    cursors: new CursorCodec(Buffer.alloc(32)),
    syncHorizon: new SyncHorizon(db, systemClock),
    instanceSecret: Buffer.alloc(32),
    publicUrl: 'http://127.0.0.1:3000',
    lateRecordHours: 24,
    adminToken: 'openapi-generation-only',
    webhookTargets: { allowPrivate: false, resolve: systemResolver },
    reportStore: fileStore(path.join(os.tmpdir(), 'jornada-reports-unused')),
    mailer: null,
    sealedDocuments: sealedDocuments({ clock: systemClock, cursors: new CursorCodec(Buffer.alloc(32)) }),
  });
  await app.ready();
  const render = async (url: string) => `${JSON.stringify((await app.inject({ url })).json(), null, 2)}\n`;
  const result = { public: await render('/v1/openapi.json'), admin: await render('/admin/v1/openapi.json') };
  await app.close();
  await db.destroy();
  return result;
}

if (import.meta.main) {
  const documents = await renderOpenApi();
  await writeFile('openapi-v1.json', documents.public);
  await writeFile('admin-openapi-v1.json', documents.admin);
  process.stdout.write('wrote openapi-v1.json and admin-openapi-v1.json\n');
}
