import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import { SoftAuthenticator } from '../../../helpers/authenticator.ts';
import {
  createTestContext,
  PUBLIC_URL,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { createAdmin, dashboardSession, login, sessionFrom } from '../../../helpers/dashboard.ts';
import { joinPortal, PortalWorker } from '../../../helpers/portal.ts';
import { rewriteChainEntry } from '../../../helpers/tamper.ts';

/**
 * Issue 35: passkeys. A worker's or an administrator's passkey signs them in (a locked password does not lock
 * it out); a worker who has one signs each approval with it, the signature enters the worker's chain, and the
 * registry's verification checks it against the key the chain registered and names a forged one.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

async function registerIn(worker: PortalWorker, device: SoftAuthenticator, name = 'Móvil') {
  const options = await worker.send('POST', '/portal/api/passkeys/registration-options', {});
  expect(options.statusCode, options.body).toBe(200);
  return await worker.send('POST', '/portal/api/passkeys', { response: device.create(options.json()), name });
}

async function passkeyLogin(surface: 'portal' | 'dashboard', device: SoftAuthenticator) {
  const post = (url: string, body: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const options = await post(`/${surface}/api/passkeys/login-options`, {});
  expect(options.statusCode, options.body).toBe(200);
  const response = device.get(options.json());
  return { answer: await post(`/${surface}/api/passkeys/login`, { response }), response };
}

async function workerWithPasskey(fields: Record<string, unknown> = {}) {
  const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-09-01', ...fields });
  const device = new SoftAuthenticator(PUBLIC_URL);
  const registered = await registerIn(worker, device);
  expect(registered.statusCode, registered.body).toBe(201);
  return { employee, worker, device };
}

async function companyCorrection(employeeId: string, day = '2026-10-05') {
  const requested = await company.live.post('/v1/check-in-corrections', {
    employee_id: employeeId,
    reason: 'Salida olvidada',
    add: [
      { type: 'in', timestamp: `${day}T07:00:00Z` },
      { type: 'out', timestamp: `${day}T15:00:00Z` },
    ],
  });
  expect(requested.statusCode, requested.body).toBe(201);
  return requested.json().id as string;
}

async function signedAccept(worker: PortalWorker, device: SoftAuthenticator, id: string) {
  const toSign = await worker.send('GET', `/portal/api/corrections/${id}/approval`);
  expect(toSign.statusCode, toSign.body).toBe(200);
  return await worker.send('POST', `/portal/api/corrections/${id}/accept`, {
    assertion: device.get(toSign.json().options),
  });
}

const entries = async (employeeId: string, kind: string) =>
  (
    await sql<{ seq: string; content: string }>`
      select seq, content from registry_entries where employee_id = ${employeeId} and kind = ${kind} order by seq`.execute(
      ctx.db,
    )
  ).rows.map((row) => ({ seq: Number(row.seq), content: JSON.parse(row.content) }));

describe('a worker’s passkey', () => {
  it('registers in the portal, is listed, enters the chain with its public key, and signs the worker in', async () => {
    const { employee, worker, device } = await workerWithPasskey();
    const listed = await worker.send('GET', '/portal/api/passkeys');
    expect(listed.json().data).toEqual([
      expect.objectContaining({ name: 'Móvil', last_used_at: null, created_at: expect.any(String) }),
    ]);
    const [registered] = await entries(employee.id, 'passkey_registered');
    expect(registered?.content).toMatchObject({
      employee_id: employee.id,
      credential_id: device.id,
      public_key: expect.any(String),
      session: { kind: 'password' },
    });

    const { answer } = await passkeyLogin('portal', device);
    expect(answer.statusCode, answer.body).toBe(200);
    const session = new PortalWorker(ctx);
    session.remember(answer);
    const me = await session.send('GET', '/portal/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().employee.id).toBe(employee.id);
    // A worker's passkey opens no dashboard session, and an unknown device none at all.
    expect((await passkeyLogin('dashboard', device)).answer.statusCode).toBe(401);
    expect((await passkeyLogin('portal', new SoftAuthenticator(PUBLIC_URL))).answer.statusCode).toBe(401);
  });

  it('refuses a replayed sign-in, and a challenge the service did not issue', async () => {
    const { device } = await workerWithPasskey();
    const { answer, response } = await passkeyLogin('portal', device);
    expect(answer.statusCode).toBe(200);
    const replay = await ctx.app.inject({
      method: 'POST',
      url: '/portal/api/passkeys/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ response }),
    });
    expect(replay.statusCode).toBe(401);
    const invented = device.get({ challenge: Buffer.from('a challenge of my own').toString('base64url') });
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/portal/api/passkeys/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ response: invented }),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers['content-type']).toContain('application/problem+json');
    // A response whose client data is not WebAuthn's is a 422, never a 500.
    for (const clientData of ['"a string"', '{"challenge":7}', 'not json at all']) {
      const malformed = await ctx.app.inject({
        method: 'POST',
        url: '/portal/api/passkeys/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          response: {
            ...invented,
            response: { ...invented.response, clientDataJSON: Buffer.from(clientData).toString('base64url') },
          },
        }),
      });
      expect(malformed.statusCode, clientData).toBe(422);
      expect(malformed.json().code).toBe('validation_failed');
    }
  });

  it('lets the worker in while wrong passwords have locked their email out', async () => {
    const { employee, device } = await workerWithPasskey();
    let locked = 0;
    for (let attempt = 0; attempt < 12; attempt++) {
      const wrong = await new PortalWorker(ctx).login(
        employee.email,
        'not the password at all',
        `203.0.113.${attempt}`,
      );
      if (wrong.statusCode === 429) locked += 1;
    }
    expect(locked).toBeGreaterThan(0);
    expect(
      (await new PortalWorker(ctx).login(employee.email, 'correct horse battery', '203.0.113.99')).statusCode,
    ).toBe(429);
    expect((await passkeyLogin('portal', device)).answer.statusCode).toBe(200);
  });

  it('is added or removed only in a session opened with a passkey, once the worker has one', async () => {
    const { worker, device } = await workerWithPasskey();
    // Whoever knows the password (or set it through a reset) cannot add their own device.
    const second = await registerIn(worker, new SoftAuthenticator(PUBLIC_URL), 'Otro');
    expect(second.statusCode).toBe(409);
    const [own] = (await worker.send('GET', '/portal/api/passkeys')).json().data;
    expect((await worker.send('DELETE', `/portal/api/passkeys/${own.id}`)).statusCode).toBe(409);

    const withPasskey = new PortalWorker(ctx);
    withPasskey.remember((await passkeyLogin('portal', device)).answer);
    const tablet = new SoftAuthenticator(PUBLIC_URL);
    expect((await registerIn(withPasskey, tablet, 'Tableta')).statusCode).toBe(201);
    expect((await withPasskey.send('GET', '/portal/api/passkeys')).json().data).toHaveLength(2);
    expect((await withPasskey.send('DELETE', `/portal/api/passkeys/${own.id}`)).statusCode).toBe(204);
    expect((await withPasskey.send('GET', '/portal/api/passkeys')).json().data).toHaveLength(1);
    // A removed passkey signs nobody in; another worker's passkey id is not found.
    expect((await passkeyLogin('portal', device)).answer.statusCode).toBe(401);
    const other = await workerWithPasskey();
    const [theirs] = (await other.worker.send('GET', '/portal/api/passkeys')).json().data;
    expect((await withPasskey.send('DELETE', `/portal/api/passkeys/${theirs.id}`)).statusCode).toBe(404);
  });

  it('is revoked by the company’s reset of the worker’s access, and the reset’s entry names it', async () => {
    const { employee, device } = await workerWithPasskey();
    const reset = await company.live.post(`/v1/employees/${employee.id}/portal-invitation`);
    expect(reset.statusCode, reset.body).toBe(201);
    expect((await passkeyLogin('portal', device)).answer.statusCode).toBe(401);
    const [entry] = await entries(employee.id, 'credential_reset');
    expect(entry?.content.passkeys_revoked).toHaveLength(1);
  });
});

describe('an approval by a worker who has a passkey', () => {
  it('must be signed with it: none, another approval’s or another device’s signature are refused', async () => {
    const { employee, worker, device } = await workerWithPasskey();
    const id = await companyCorrection(employee.id);
    const unsigned = await worker.send('POST', `/portal/api/corrections/${id}/accept`, {});
    expect(unsigned.statusCode).toBe(422);
    expect(unsigned.json()).toMatchObject({
      code: 'validation_failed',
      errors: { assertion: [expect.any(String)] },
    });

    // A signature of another correction does not accept this one.
    const otherId = await companyCorrection(employee.id, '2026-10-06');
    const otherSign = (await worker.send('GET', `/portal/api/corrections/${otherId}/approval`)).json();
    const moved = await worker.send('POST', `/portal/api/corrections/${id}/accept`, {
      assertion: device.get(otherSign.options),
    });
    expect(moved.statusCode).toBe(422);
    // Nor does a device the worker never registered.
    const toSign = (await worker.send('GET', `/portal/api/corrections/${id}/approval`)).json();
    expect(toSign.approval).toMatchObject({
      action: 'correction_accepted',
      correction_id: id,
      employee_id: employee.id,
    });
    const stranger = new SoftAuthenticator(PUBLIC_URL);
    const foreign = await worker.send('POST', `/portal/api/corrections/${id}/accept`, {
      assertion: stranger.get(toSign.options),
    });
    expect(foreign.statusCode).toBe(422);
    const pending = await company.live.get(`/v1/check-in-corrections/${id}`);
    expect(pending.json().employee_approval).toBeNull();

    const accepted = await signedAccept(worker, device, id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().employee_approval).not.toBeNull();
    const [entry] = await entries(employee.id, 'correction_accepted');
    expect(entry?.content.signature).toMatchObject({
      approval: toSign.approval,
      assertion: { id: device.id },
    });
    expect((await verifyRegistry(ctx.deps, company.id)).problems).toEqual([]);
  });

  it('signs the worker’s own request and the acknowledgement of a closed month, and verification checks both', async () => {
    const { employee, worker, device } = await workerWithPasskey({ hire_date: '2026-08-01' });
    const request = {
      reason: 'Olvidé fichar',
      add: [
        { type: 'in', timestamp: '2026-09-07T07:00:00Z' },
        { type: 'out', timestamp: '2026-09-07T15:00:00Z' },
      ],
    };
    expect((await worker.send('POST', '/portal/api/corrections', request)).statusCode).toBe(422);
    const toSign = (await worker.send('POST', '/portal/api/corrections/approval', request)).json();
    expect(toSign.approval).toMatchObject({ action: 'correction_requested', reason: 'Olvidé fichar' });
    const requested = await worker.send('POST', '/portal/api/corrections', {
      ...request,
      assertion: device.get(toSign.options),
    });
    expect(requested.statusCode, requested.body).toBe(201);
    expect(
      (await company.live.post(`/v1/check-in-corrections/${requested.json().id}/approve`)).statusCode,
    ).toBe(200);

    const month = '2026-08';
    expect((await company.live.post(`/v1/registry/months/${month}/close`)).statusCode).toBe(200);
    expect((await worker.send('POST', `/portal/api/registry/${month}/acknowledge`, {})).statusCode).toBe(422);
    const ack = (await worker.send('GET', `/portal/api/registry/${month}/approval`)).json();
    expect(ack.approval).toMatchObject({
      action: 'month_acknowledged',
      month,
      version: 1,
      seal: expect.any(String),
    });
    const acknowledged = await worker.send('POST', `/portal/api/registry/${month}/acknowledge`, {
      assertion: device.get(ack.options),
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const [entry] = await entries(employee.id, 'month_acknowledged');
    expect(entry?.content.signature.approval).toEqual(ack.approval);
    expect((await verifyRegistry(ctx.deps, company.id)).problems).toEqual([]);
  });
});

describe('an answer to a record someone else made, by a worker who has a passkey', () => {
  it('is signed too, and verification checks it', async () => {
    const { employee, worker, device } = await workerWithPasskey();
    const record = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: '2026-10-12T07:00:00Z',
    });
    expect(record.statusCode, record.body).toBe(201);
    const id = record.json().id as string;
    expect(
      (await worker.send('POST', `/portal/api/check-ins/${id}/reject`, { reason: 'No vine' })).statusCode,
    ).toBe(422);
    const toSign = (
      await worker.send('POST', `/portal/api/check-ins/${id}/approval`, {
        response: 'rejected',
        reason: 'No vine',
      })
    ).json();
    expect(toSign.approval).toMatchObject({
      action: 'check_in_rejected',
      check_in_id: id,
      reason: 'No vine',
    });
    // A signature of the rejection does not carry another reason.
    const other = await worker.send('POST', `/portal/api/check-ins/${id}/reject`, {
      reason: 'Otro motivo',
      assertion: device.get(toSign.options),
    });
    expect(other.statusCode).toBe(422);
    const rejected = await worker.send('POST', `/portal/api/check-ins/${id}/reject`, {
      reason: 'No vine',
      assertion: device.get(toSign.options),
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [entry] = await entries(employee.id, 'check_in_rejected');
    expect(entry?.content.credential.signature.approval).toEqual(toSign.approval);
    expect((await verifyRegistry(ctx.deps, company.id)).problems).toEqual([]);
  });
});

const rewriteEntry = (employeeId: string, seq: number, change: (content: Record<string, unknown>) => void) =>
  rewriteChainEntry(ctx.db, { companyId: company.id, employeeId, seq }, change);

describe('verification of signed approvals', () => {
  it('names a signature forged by an operator who re-linked the chain, and one by a passkey inserted with SQL', async () => {
    const { employee, worker, device } = await workerWithPasskey();
    const id = await companyCorrection(employee.id, '2026-10-07');
    expect((await signedAccept(worker, device, id)).statusCode).toBe(200);
    const before = await verifyRegistry(ctx.deps, company.id);
    expect(before.problems).toEqual([]);

    // The operator signs with a key of their own and rewrites the chain consistently: every link holds.
    const [entry] = await entries(employee.id, 'correction_accepted');
    const forger = new SoftAuthenticator(PUBLIC_URL);
    const original = entry?.content.signature;
    await rewriteEntry(employee.id, entry?.seq ?? 0, (content) => {
      const assertion = forger.get({
        challenge: JSON.parse(Buffer.from(original.assertion.response.clientDataJSON, 'base64url').toString())
          .challenge,
      });
      content.signature = { ...original, assertion: { ...assertion, id: device.id, rawId: device.id } };
    });
    const forged = await verifyRegistry(ctx.deps, company.id);
    expect(forged.problems).toEqual([
      expect.objectContaining({ kind: 'approval_signature', employee_id: employee.id, entry: entry?.seq }),
    ]);
    expect(forged.problems.map((problem) => problem.kind)).not.toContain('chain_hash');

    // A genuine signature moved onto another approval is named too.
    await rewriteEntry(employee.id, entry?.seq ?? 0, (content) => {
      content.signature = {
        ...original,
        approval: { ...original.approval, correction_id: crypto.randomUUID() },
      };
    });
    const moved = await verifyRegistry(ctx.deps, company.id);
    expect(moved.problems.map((problem) => problem.kind)).toEqual(['approval_signature']);
    await rewriteEntry(employee.id, entry?.seq ?? 0, (content) => {
      content.signature = original;
    });
    expect((await verifyRegistry(ctx.deps, company.id)).problems).toEqual([]);

    // A genuine signature of one approval copied onto another approval's entry is named as well.
    const secondId = await companyCorrection(employee.id, '2026-10-14');
    expect((await signedAccept(worker, device, secondId)).statusCode).toBe(200);
    const second = (await entries(employee.id, 'correction_accepted'))[1];
    await rewriteEntry(employee.id, second?.seq ?? 0, (content) => {
      content.signature = original;
    });
    const copied = await verifyRegistry(ctx.deps, company.id);
    expect(copied.problems).toEqual([
      expect.objectContaining({
        kind: 'approval_signature',
        entry: second?.seq,
        found: expect.stringContaining('another approval'),
      }),
    ]);
    await rewriteEntry(employee.id, second?.seq ?? 0, (content) => {
      content.signature = second?.content.signature;
    });
  });

  it('names an approval signed by a passkey an operator inserted with SQL for the worker', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-09-01' });
    // The operator's own device, made through another worker's registration, then moved onto this worker.
    const helper = await workerWithPasskey();
    await sql`set session_replication_role = replica`.execute(ctx.db);
    try {
      await sql`update passkeys set owner_id = ${employee.id}
        where credential_id = ${helper.device.id}`.execute(ctx.db);
    } finally {
      await sql`set session_replication_role = origin`.execute(ctx.db);
    }
    const id = await companyCorrection(employee.id, '2026-10-08');
    expect((await signedAccept(worker, helper.device, id)).statusCode).toBe(200);
    const verified = await verifyRegistry(ctx.deps, company.id);
    expect(verified.problems).toEqual([
      expect.objectContaining({
        kind: 'approval_signature',
        employee_id: employee.id,
        found: expect.stringContaining('never registered'),
      }),
    ]);
  });
});

describe('an administrator’s passkey', () => {
  it('registers in the dashboard, signs in while the password is locked out, and stops when removed', async () => {
    const admin = await createAdmin(ctx, company.id);
    const session = await dashboardSession(ctx, admin.email, admin.password);
    const device = new SoftAuthenticator(PUBLIC_URL);
    const options = await session.call('POST', '/dashboard/api/passkeys/registration-options', {});
    expect(options.statusCode, options.body).toBe(200);
    const created = await session.call('POST', '/dashboard/api/passkeys', {
      response: device.create(options.json()),
      name: 'Llave USB',
    });
    expect(created.statusCode, created.body).toBe(201);
    // The same device again is refused (the options exclude it; a forced repeat is a conflict).
    const again = await session.call('POST', '/dashboard/api/passkeys/registration-options', {});
    expect(again.json().excludeCredentials).toEqual([expect.objectContaining({ id: device.id })]);

    for (let attempt = 0; attempt < 11; attempt++) await login(ctx, admin.email, 'wrong password, again');
    expect((await login(ctx, admin.email, admin.password)).statusCode).toBe(429);
    const { answer } = await passkeyLogin('dashboard', device);
    const byPasskey = sessionFrom(ctx, answer);
    expect(answer.json().admin.email).toBe(admin.email);
    expect((await byPasskey.call('GET', '/dashboard/api/passkeys')).json().data).toEqual([
      expect.objectContaining({ name: 'Llave USB', last_used_at: expect.any(String) }),
    ]);
    // An administrator's passkey opens no portal session.
    expect((await passkeyLogin('portal', device)).answer.statusCode).toBe(401);

    expect((await byPasskey.call('DELETE', `/dashboard/api/passkeys/${created.json().id}`)).statusCode).toBe(
      204,
    );
    expect((await passkeyLogin('dashboard', device)).answer.statusCode).toBe(401);
    // The key stays, for the record, and cannot be changed or deleted.
    await expect(sql`delete from passkeys where id = ${created.json().id}`.execute(ctx.db)).rejects.toThrow(
      /never deleted/,
    );
  });
});

it('needs no passkey from a worker who has none (a password session approves alone)', async () => {
  const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-09-01' });
  const id = await companyCorrection(employee.id, '2026-10-09');
  const toSign = (await worker.send('GET', `/portal/api/corrections/${id}/approval`)).json();
  expect(toSign.options).toBeNull();
  expect((await worker.send('POST', `/portal/api/corrections/${id}/accept`, {})).statusCode).toBe(200);
});
