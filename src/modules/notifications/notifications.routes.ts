import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { PageMeta, PageQuery } from '../../platform/pagination.ts';
import {
  DASHBOARD_OPERATION,
  PORTAL_OPERATION,
  requireSession,
  requireWorker,
} from '../../platform/sessions.ts';
import { NOTIFICATION_KINDS } from './notifications.messages.ts';
import {
  inbox,
  preferences,
  type Recipient,
  readNotifications,
  readUnsubscribeToken,
  unsubscribe,
  updatePreferences,
} from './notifications.service.ts';

const Language = Type.Enum(['es', 'en'], { type: 'string' });
const Kind = Type.Enum([...NOTIFICATION_KINDS], { type: 'string' });

const InboxQuery = Type.Object(
  { lang: Type.Optional(Language), ...PageQuery },
  { additionalProperties: false },
);

const InboxView = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Uuid(),
      kind: Type.String(),
      title: Type.String(),
      body: Type.String(),
      link: Type.String({ description: 'A path of the dashboard or the portal.' }),
      created_at: Instant(),
      read: Type.Boolean(),
    }),
  ),
  unread: Type.Integer(),
  meta: PageMeta,
});

const ReadBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Uuid(), { maxItems: 100 })),
    all: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ReadView = Type.Object({ read: Type.Integer(), unread: Type.Integer() });

const PreferencesView = Type.Object({
  language: Nullable(Language),
  email_off: Type.Array(Kind, { description: 'The kinds not sent by e-mail (the inbox keeps them).' }),
});
const PreferencesBody = Type.Object(
  {
    language: Type.Optional(Nullable(Language)),
    email_off: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);

type Surface = {
  prefix: string;
  operation: typeof DASHBOARD_OPERATION | typeof PORTAL_OPERATION;
  idPrefix: string;
  who: (request: FastifyRequest) => { companyId: string; recipient: Recipient };
};

/** The inbox, its read marks and the e-mail choices, on a surface (the dashboard's or the portal's). */
function inboxRoutes(app: FastifyInstance, deps: AppDeps, surface: Surface): void {
  const { prefix, operation, idPrefix, who } = surface;
  route(
    app,
    {
      ...operation,
      method: 'GET',
      url: `${prefix}/notifications`,
      operationId: `${idPrefix}Notifications`,
      summary: 'Your notifications, newest first, in your language, with how many are unread',
      scope: null,
      querystring: InboxQuery,
      responses: { 200: { description: 'The inbox.', schema: InboxView } },
    },
    async (request) => {
      const { companyId, recipient } = who(request);
      return await inbox(deps, companyId, recipient, {
        language: request.query.lang ?? 'es',
        limit: request.query.limit,
        cursor: request.query.cursor,
      });
    },
  );
  route(
    app,
    {
      ...operation,
      method: 'POST',
      url: `${prefix}/notifications/read`,
      operationId: `${idPrefix}ReadNotifications`,
      summary: 'Mark some of your notifications read (`ids`), or all of them (`all: true`)',
      scope: null,
      body: ReadBody,
      responses: { 200: { description: 'How many were marked, and how many are left.', schema: ReadView } },
    },
    async (request) => {
      const { companyId, recipient } = who(request);
      return await readNotifications(deps, companyId, recipient, request.body);
    },
  );
  route(
    app,
    {
      ...operation,
      method: 'GET',
      url: `${prefix}/notification-preferences`,
      operationId: `${idPrefix}NotificationPreferences`,
      summary: 'Your e-mail choices: the language, and the kinds you do not want by e-mail',
      scope: null,
      responses: { 200: { description: 'The choices.', schema: PreferencesView } },
    },
    async (request) => {
      const { companyId, recipient } = who(request);
      return await preferences(deps, companyId, recipient);
    },
  );
  route(
    app,
    {
      ...operation,
      method: 'PATCH',
      url: `${prefix}/notification-preferences`,
      operationId: `${idPrefix}UpdateNotificationPreferences`,
      summary: 'Change your e-mail choices',
      scope: null,
      body: PreferencesBody,
      responses: { 200: { description: 'The choices.', schema: PreferencesView } },
    },
    async (request) => {
      const { companyId, recipient } = who(request);
      return await updatePreferences(deps, companyId, recipient, request.body);
    },
  );
}

/** The administrator's inbox in the dashboard. */
export function notificationsDashboardRoutes(app: FastifyInstance, deps: AppDeps): void {
  inboxRoutes(app, deps, {
    prefix: '/dashboard/api',
    operation: DASHBOARD_OPERATION,
    idPrefix: 'dashboard',
    who: (request) => {
      const session = requireSession(request);
      return { companyId: session.company_id, recipient: { type: 'admin', id: session.admin_id } };
    },
  });
}

/** The worker's inbox in the portal. */
export function notificationsPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  inboxRoutes(app, deps, {
    prefix: '/portal/api',
    operation: PORTAL_OPERATION,
    idPrefix: 'portal',
    who: (request) => {
      const { tenant, employee } = requireWorker(request);
      return { companyId: tenant.companyId, recipient: { type: 'employee', id: employee.id } };
    },
  });
}

const PAGE = (language: 'es' | 'en', title: string, body: string) => `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5">
<h1 style="font-size:1.3rem">${title}</h1>${body}</body></html>`;

/**
 * The link at the foot of every notification e-mail (RFC 8058): GET shows what it will do and asks to confirm (a
 * mail scanner that follows links changes nothing); POST, from that page or a mail client's one-click
 * unsubscribe, turns that kind's e-mails off. The page is Spanish with the English below: the link does not say
 * which the reader prefers.
 */
export function notificationPages(app: FastifyInstance, deps: AppDeps): void {
  const url = '/notifications/unsubscribe';
  // The confirmation form and one-click clients post a form; its fields say nothing the token does not.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, body),
  );
  const tokenOf = (request: FastifyRequest) => {
    const token = (request.query as { token?: unknown }).token;
    return typeof token === 'string' ? readUnsubscribeToken(deps.instanceSecret, token) : null;
  };
  const refuse = (reply: FastifyReply) =>
    reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(
        PAGE(
          'es',
          'Enlace no válido · Invalid link',
          '<p>Este enlace no es válido. Tus preferencias no han cambiado.</p><p lang="en">This link is not valid. Your choices have not changed.</p>',
        ),
      );
  app.get(url, async (request, reply) => {
    const token = tokenOf(request);
    if (!token) return refuse(reply);
    const action = `${url}?token=${encodeURIComponent((request.query as { token: string }).token)}`;
    return reply.type('text/html; charset=utf-8').send(
      PAGE(
        'es',
        'Dejar de recibir estos correos · Stop these e-mails',
        `<p>Dejarás de recibir por correo las notificaciones de este tipo; seguirán en tu bandeja de Jornada.</p>
<p lang="en">You will no longer receive this kind of notification by e-mail; it stays in your Jornada inbox.</p>
<form method="post" action="${action}"><button type="submit" style="padding:.6rem 1rem">Confirmar · Confirm</button></form>`,
      ),
    );
  });
  app.post(url, async (request, reply) => {
    const token = tokenOf(request);
    if (!token) return refuse(reply);
    await unsubscribe(deps, token);
    return reply
      .type('text/html; charset=utf-8')
      .send(
        PAGE(
          'es',
          'Hecho · Done',
          '<p>No recibirás más correos de este tipo. Puedes cambiarlo en tus preferencias de Jornada.</p><p lang="en">You will receive no more e-mails of this kind. You can change it in your Jornada preferences.</p>',
        ),
      );
  });
}
