/** The dashboard's JSON API client: same-origin cookie session, X-CSRF-Token on every state-changing call. */

import { i18n, t } from './i18n.ts';
import {
  CODE_SENTENCES,
  SPANISH_FIELD_NAMES,
  spanishDetail,
  spanishFieldMessage,
} from './locales/messages.ts';

export { formatInstant } from './i18n.ts';

export type Mode = 'live' | 'test';

/** A page of a listing, as the service's pagination types it. */
import type { Page } from '../../src/platform/pagination.ts';

export type { Page };

export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, unknown>;
  constructor(status: number, code: string, detail: string, errors: Record<string, unknown>) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

/**
 * A JSON client for one of the service's session APIs (the dashboard's, the portal's): the same-origin cookie,
 * X-CSRF-Token on every state-changing call, problem+json turned into ApiProblem, and a hook for a lost session.
 */
export function sessionClient(base: string, loginPaths: readonly string[]) {
  let csrfToken = '';
  let onSessionLost: () => void = () => {};
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiProblem(0, 'network_error', 'The service cannot be reached. Check your connection.', {});
    }
    if (response.status === 204) return undefined as T;
    const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) {
      const problem = new ApiProblem(
        response.status,
        String(data?.code ?? 'internal_error'),
        String(data?.detail ?? `The service answered ${response.status}.`),
        (data?.errors as Record<string, unknown>) ?? {},
      );
      if (response.status === 401 && !loginPaths.includes(path)) onSessionLost();
      throw problem;
    }
    return data as T;
  }
  return {
    request,
    setCsrfToken(token: string): void {
      csrfToken = token;
    },
    /** Called when the session is gone (401), so the app can show the login form again. */
    whenSessionLost(handler: () => void): void {
      onSessionLost = handler;
    },
  };
}

const dashboard = sessionClient('/dashboard/api', ['/login', '/passkeys/login']);
export const api = dashboard.request;
export const setCsrfToken = dashboard.setCsrfToken;
export const whenSessionLost = dashboard.whenSessionLost;

const spanish = () => i18n.language === 'es';

/** A field of the API (`scopes`, `params.month`, `path.id`) as a person reads it: `Scopes`, `Month`, `Id`. */
export function fieldLabel(path: string): string {
  const last = (path.split('.').at(-1) ?? path).replace(/\[\d+\]$/, '');
  if (spanish() && SPANISH_FIELD_NAMES[last]) return SPANISH_FIELD_NAMES[last];
  const words = last.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A field message of the service in the interface's language (the service writes English). */
export const localMessage = (message: string) =>
  spanish() ? (spanishFieldMessage(message) ?? message) : message;

/** A problem's messages by the API's field path (empty for a problem that names no field). */
export function fieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiProblem)) return {};
  return Object.fromEntries(
    Object.entries(error.errors).map(([field, messages]) => [
      field,
      (Array.isArray(messages) ? messages : [messages]).map((message) => localMessage(String(message))),
    ]),
  );
}

/** A problem's detail in the interface's language; in Spanish, one no rule knows follows its code's sentence. */
function localDetail(error: ApiProblem): string[] {
  if (!spanish()) return [error.message];
  const known = spanishDetail(error.message);
  if (known) return [known];
  return [CODE_SENTENCES[error.code] ?? 'No se ha podido completar.', error.message];
}

/** A field's messages as one sentence after its name: `Email is already used…` / `Correo: ya lo usa…`. */
export const fieldSentence = (label: string, messages: string[]) =>
  spanish() ? `${label}: ${messages.join('; ')}.` : `${label} ${messages.join('; ')}.`;

/**
 * A problem as sentences a person can act on, in the interface's language: with field errors, a heading and
 * every field's messages (none hidden); else the detail.
 */
export function describe(error: unknown): string[] {
  if (!(error instanceof ApiProblem)) return [error instanceof Error ? error.message : String(error)];
  const fields = Object.entries(fieldErrors(error));
  if (fields.length === 0) return localDetail(error);
  return [
    t('Check these {{count}} fields:', { count: fields.length }),
    ...fields.map(([field, messages]) => fieldSentence(fieldLabel(field), messages)),
  ];
}

export const query = (params: Record<string, string | number | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** Minutes as H:MM, hours unbounded and negative with a minus sign: 172:30, −1:15. */
export const hhmm = (minutes: number) =>
  `${minutes < 0 ? '−' : ''}${Math.floor(Math.abs(minutes) / 60)}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

export const formatMinutes = (minutes: number) => {
  const sign = minutes < 0 ? '−' : '';
  const absolute = Math.abs(minutes);
  return `${sign}${Math.floor(absolute / 60)} h ${String(absolute % 60).padStart(2, '0')} min`;
};

/** Every page of a listing, one after the other (a month's calendar, a month's summaries: a few pages of 100). */
export async function allPages<T>(path: string, params: Record<string, string> = {}): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await api<Page<T>>('GET', `${path}${query({ ...params, limit: 100, cursor })}`);
    rows.push(...page.data);
    cursor = page.meta.next_cursor;
  } while (cursor);
  return rows;
}
