/**
 * The app built without a database connection (nothing is queried): what the scripts that read the route
 * declarations use (the OpenAPI files, the operations table).
 */
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

export async function buildOffline() {
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
  return {
    app,
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}
