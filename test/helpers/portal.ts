import { expect } from 'vitest';
import type { Client, TestContext } from './context.ts';
import { hire } from './resources.ts';

type Answer = Awaited<ReturnType<TestContext['app']['inject']>>;

/** A worker's browser in the portal: the session cookie and the CSRF token, as the portal page keeps them. */
export class PortalWorker {
  cookie = '';
  csrf = '';
  readonly #ctx: TestContext;

  constructor(ctx: TestContext) {
    this.#ctx = ctx;
  }

  remember(response: Answer) {
    const set = response.headers['set-cookie'];
    const line = Array.isArray(set) ? set[0] : set;
    if (line) this.cookie = line.split(';')[0] as string;
    if (response.statusCode === 200 && response.json().csrf_token) this.csrf = response.json().csrf_token;
    return response;
  }

  async send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    options: { csrf?: boolean } = {},
  ) {
    const headers: Record<string, string> = { cookie: this.cookie };
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return await this.#ctx.app.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  async accept(token: string, password = 'correct horse battery') {
    return this.remember(await this.send('POST', '/portal/api/invitations/accept', { token, password }));
  }

  async login(email: string, password: string, ip = '127.0.0.1') {
    return this.remember(
      await this.#ctx.app.inject({
        method: 'POST',
        url: '/portal/api/login',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email, password }),
      }),
    );
  }
}

export const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;

/**
 * Where a context that sends mail finds a worker's link (issue 35: the answer then holds none): the latest message
 * to the worker's email among those a test's SMTP sink received.
 */
let mailbox: readonly string[] | null = null;
export function readLinksFrom(messages: readonly string[]): void {
  mailbox = messages;
}

/** The link in the latest message to an address (quoted-printable soft breaks undone). */
export function mailedLink(messages: readonly string[], email: string): string {
  const message = [...messages].reverse().find((text) => text.includes(`To: ${email}`));
  const token = message
    ?.replace(/=\r\n/g, '')
    .match(/invitation\?token=3D([\w-]{43})|invitation\?token=([\w-]{43})/);
  if (!token) throw new Error(`no link was mailed to ${email}`);
  return `http://jornada.test/portal/invitation?token=${token[1] ?? token[2]}`;
}

/**
 * The company's invitation of an employee to the portal (201 expected), with the link the worker gets: in the
 * answer, or by email when the context sends mail.
 */
export async function invite(client: Client, employeeId: string) {
  const response = await client.post(`/v1/employees/${employeeId}/portal-invitation`);
  expect(response.statusCode, response.body).toBe(201);
  const answer = response.json() as {
    url?: string;
    expires_at: string;
    emailed: boolean;
    kind: 'invitation' | 'reset';
  };
  if (answer.url !== undefined || !mailbox) return { ...answer, url: answer.url as string };
  const email = (await client.get(`/v1/employees/${employeeId}`)).json().email as string;
  return { ...answer, url: mailedLink(mailbox, email) };
}

/** A worker hired by the company who accepted the portal invitation: the employee and their session. */
export async function joinPortal(ctx: TestContext, client: Client, fields: Record<string, unknown> = {}) {
  const employee = await hire(client, { hire_date: '2025-01-01', ...fields });
  const worker = new PortalWorker(ctx);
  expect((await worker.accept(tokenOf((await invite(client, employee.id)).url))).statusCode).toBe(200);
  return { employee, worker };
}
