import type { ChildProcess } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { E2E_ADMIN_TOKEN, freePort, httpClient, spawnCli, useServiceWorld } from '../helpers/service.ts';

/**
 * `jornada listen --forward-to` (issue 18), between real processes: the service, the command, and a receiver on
 * "a laptop" (a local HTTP server with no https and no public address). A sandbox event reaches the receiver,
 * signed with the command's secret, and verifies.
 */
const world = useServiceWorld('listen');
let receiver: Receiver;
let listener: ChildProcess | null = null;
let base = '';
let testKey = '';
const SECRET = `whsec_${Buffer.from('a listen secret for the e2e test').toString('base64')}`;

beforeAll(async () => {
  receiver = await startReceiver();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await world.start('api', { port });
  const http = httpClient(base);
  const company = await http('POST', '/admin/v1/companies', { name: 'Listen e2e' }, E2E_ADMIN_TOKEN);
  testKey = (
    await http(
      'POST',
      `/admin/v1/companies/${company.body.id}/api-keys`,
      { mode: 'test', scopes: ['webhooks:manage', 'org:empleados:write'] },
      E2E_ADMIN_TOKEN,
    )
  ).body.secret;
}, 60_000);

afterAll(async () => {
  listener?.kill('SIGTERM');
  await receiver?.close();
});

describe('jornada listen', () => {
  it('forwards a sandbox event to a local receiver, signed so that it verifies', async () => {
    const run = spawnCli(
      ['listen', '--forward-to', `${receiver.url}/laptop`, '--url', base, '--secret', SECRET],
      { JORNADA_API_KEY: testKey },
    );
    listener = run.child;
    const output = run.output;
    await expect.poll(output, { timeout: 15_000 }).toContain('Ready: forwarding');
    expect(output()).toContain(`Signing secret: ${SECRET}`);

    const http = httpClient(base);
    const sample = await http('POST', '/v1/sandbox/events', { type: 'absence.approved' }, testKey);
    expect(sample.status, sample.text).toBe(202);
    // A real change in the sandbox is forwarded too.
    const hired = await http(
      'POST',
      '/v1/employees',
      { first_name: 'Ana', last_name: 'Portátil', email: 'ana.portatil@example.com' },
      testKey,
    );
    expect(hired.status, hired.text).toBe(201);

    const received = await receiver.waitFor(2, 30_000);
    const webhook = new Webhook(SECRET);
    const events = received.map((request) => webhook.verify(request.body, request.headers)) as Array<{
      id: string;
      type: string;
      data: Record<string, unknown>;
    }>;
    expect(events.map((event) => event.type)).toEqual(['absence.approved', 'employee.created']);
    expect(events[0]?.id).toBe(sample.body.id);
    expect(events[1]?.data).toEqual({ employee_id: hired.body.id });
    // A tampered body does not verify.
    expect(() => webhook.verify(`${received[0]?.body} `, received[0]?.headers ?? {})).toThrow();
    await expect.poll(output).toContain(`absence.approved ${sample.body.id} → 200`);
  }, 60_000);

  it('sends an event its receiver failed again, on the deliveries’ schedule shortened (issue 41)', async () => {
    // The receiver fails the first two attempts at /flaky, then mends.
    receiver.respond = (request, index) =>
      request.path === '/flaky' &&
      receiver.requests.filter((r, i) => i <= index && r.path === '/flaky').length <= 2
        ? 500
        : 200;
    const run = spawnCli(
      ['listen', '--forward-to', `${receiver.url}/flaky`, '--url', base, '--secret', SECRET],
      {
        JORNADA_API_KEY: testKey,
      },
    );
    try {
      await expect.poll(run.output, { timeout: 15_000 }).toContain('Ready: forwarding');
      const sample = await httpClient(base)('POST', '/v1/sandbox/events', { type: 'ping' }, testKey);
      expect(sample.status, sample.text).toBe(202);
      // The listener polled the feed: the sample says it will reach one.
      expect(sample.body.listeners).toBeGreaterThanOrEqual(1);
      await expect.poll(run.output, { timeout: 20_000 }).toContain(`ping ${sample.body.id} → 200`);
      const output = run.output();
      expect(output).toContain(`ping ${sample.body.id} → 500; again in 1 s`);
      expect(output).toContain(`ping ${sample.body.id} → 500; again in 5 s`);
      const attempts = receiver.requests.filter((request) => request.path === '/flaky');
      expect(attempts).toHaveLength(3);
      // Each attempt the same event and webhook-id, freshly signed, and verifying.
      const webhook = new Webhook(SECRET);
      for (const attempt of attempts) {
        expect(attempt.headers['webhook-id']).toBe(sample.body.id);
        expect((webhook.verify(attempt.body, attempt.headers) as { id: string }).id).toBe(sample.body.id);
      }
      const gaps = attempts
        .slice(1)
        .map((attempt, index) => attempt.receivedAt - (attempts[index]?.receivedAt ?? 0));
      expect(gaps[0]).toBeGreaterThanOrEqual(900);
      expect(gaps[1]).toBeGreaterThanOrEqual(4_500);
    } finally {
      run.child.kill('SIGTERM');
      receiver.respond = () => 200;
    }
  }, 60_000);

  it('refuses a live key, and says which URL it could not reach', async () => {
    const refuse = async (args: string[], env: Record<string, string>) => {
      const run = spawnCli(['listen', ...args], env);
      return { code: await run.exited, output: run.output() };
    };
    const live = await refuse(['--forward-to', `${receiver.url}/x`, '--url', base], {
      JORNADA_API_KEY: 'jrn_live_0123456789012345678901234567890123456789',
    });
    expect(live.code).toBe(2);
    expect(live.output).toContain('give a test key');
    const closed = await freePort();
    const nowhere = await refuse(
      ['--forward-to', `${receiver.url}/x`, '--url', `http://127.0.0.1:${closed}`],
      {
        JORNADA_API_KEY: testKey,
      },
    );
    expect(nowhere.code).toBe(1);
    expect(nowhere.output).toContain(`cannot reach http://127.0.0.1:${closed}/v1/sandbox/events`);
    expect(nowhere.output).not.toMatch(/\n\s+at /);
  }, 30_000);
});
