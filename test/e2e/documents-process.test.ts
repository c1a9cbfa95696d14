import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  companyWithLiveKey,
  freePort,
  httpClient,
  type ServiceNode,
  useServiceWorld,
} from '../helpers/service.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';

/**
 * Issue 39: a closed month's documents are made by a background process of the service (documents-process.ts),
 * off the event loop that answers the API. Against a real `jornada serve --role=all`: closing a month makes each
 * worker's sealed documents and tells the worker, without a request asking for them.
 */
const world = useServiceWorld('documents-process');
let node: ServiceNode;
let http: ReturnType<typeof httpClient>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  const port = await freePort();
  node = await world.start('all', { port, env: { JORNADA_SMTP_URL: sink.smtp.url } });
  http = httpClient(`http://127.0.0.1:${port}`);
}, 60_000);
afterAll(async () => {
  await sink?.close();
});

it('makes a closed month’s documents in the background and tells the worker', async () => {
  expect(node).toBeDefined();
  const { liveKey } = await companyWithLiveKey(http, 'Documents in the background', [
    'org:empleados:write',
    'org:registro:write',
  ]);
  const hired = await http(
    'POST',
    '/v1/employees',
    { first_name: 'Doc', last_name: 'Fondo', email: 'doc.fondo@example.com', hire_date: '2026-01-01' },
    liveKey,
  );
  expect(hired.status, hired.text).toBe(201);
  const closed = await http('POST', '/v1/registry/months/2026-10/close', undefined, liveKey);
  expect(closed.status, closed.text).toBe(200);
  const db = new pg.Client({ connectionString: world.database.url });
  await db.connect();
  try {
    const count = async (query: string) =>
      Number((await db.query(query, [hired.body.id])).rows[0]?.count ?? 0);
    let documents = 0;
    for (let tries = 0; tries < 120 && documents === 0; tries += 1) {
      documents = await count('select count(*) from registry_documents where employee_id = $1');
      if (documents === 0) await delay(500);
    }
    // PDF and XLSX, in Spanish and English.
    expect(documents).toBe(4);
    expect(
      await count("select count(*) from notifications where recipient_id = $1 and kind = 'month_closed'"),
    ).toBe(1);
    expect(await count('select count(*) from registry_document_work where employee_id = $1')).toBe(0);
    // The worker's e-mail, with the PDF attached, sent by the e-mails' background process (emails-process.ts).
    let sent = 0;
    for (let tries = 0; tries < 120 && sent === 0; tries += 1) {
      sent = await count(
        "select count(*) from notifications where recipient_id = $1 and kind = 'month_closed' and email_state = 'sent'",
      );
      if (sent === 0) await delay(500);
    }
    expect(sent).toBe(1);
    const mail = sink.received.find((message) => message.includes('To: doc.fondo@example.com'));
    expect(mail).toContain('Content-Type: application/pdf');
  } finally {
    await db.end();
  }
}, 90_000);

it('names its database sessions by the process they serve (docs/operations.md)', async () => {
  expect(node).toBeDefined();
  const db = new pg.Client({ connectionString: world.database.url });
  await db.connect();
  try {
    const names = (
      await db.query<{ name: string }>(
        'select distinct application_name as name from pg_stat_activity where datname = current_database()',
      )
    ).rows.map((row) => row.name);
    expect(names).toContain('jornada all');
  } finally {
    await db.end();
  }
});
