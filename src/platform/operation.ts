import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { RouteAccess } from './auth.ts';
import { ERROR_CATALOG, type ErrorCode } from './errors.ts';
import { ProblemSchema } from './problem.schema.ts';
import type { Scope } from './scopes.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Responses = Record<
  number,
  { description: string; schema: TSchema | null; contentType?: string; contentTypes?: string[] }
>;

export type OperationSpec<
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  B extends TSchema | undefined,
  R extends Responses = Responses,
> = {
  method: Method;
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The scope a key needs; null for any valid key; 'public' for no authentication. */
  scope: Scope | null | 'public';
  /** A scope that still admits the call until the legacy sunset, with Deprecation and Sunset headers. */
  legacyScope?: Scope;
  params?: P;
  querystring?: Q;
  body?: B;
  /** Success responses by status. A null schema means an empty body (204, or a file). */
  responses: R;
  /** Error codes this operation can answer besides the ones every authenticated call can. */
  errors?: ErrorCode[];
  /** Problem statuses answered with a code whose usual status differs (the signed download's 403). */
  problemStatuses?: number[];
  deprecated?: boolean;
  allowInactiveService?: boolean;
  /** `listen`: admitted on a budget of its own, not the key's rate limit nor the monthly quota (auth.ts). */
  budget?: 'listen';
  idempotency?: 'store' | 'never';
  /** The largest body it takes, in bytes, when more than the app's 1 MiB (a bulk write). */
  bodyLimit?: number;
  /**
   * Where the operation is served and how it is authenticated: `public` (/v1, API keys), `admin` (/admin/v1, the
   * admin token), `dashboard` and `portal` (cookie sessions), `registry-access` (an access link's token).
   */
  surface?: 'public' | 'admin' | 'dashboard' | 'portal' | 'registry-access' | 'kiosk';
};

const AUTHENTICATED_ERRORS: ErrorCode[] = [
  'unauthenticated',
  'invalid_scope',
  'addon_disabled',
  'subscription_inactive',
  'rate_limited',
  'quota_exceeded',
  'internal_error',
];

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'unauthenticated: the key is missing, invalid, revoked or expired.',
  402: 'billing_required: the plan does not allow the action.',
  403: 'invalid_scope, addon_disabled or subscription_inactive.',
  404: 'not_found: the resource does not exist or belongs to another company.',
  405: 'The method is not allowed on this path.',
  409: 'conflict or idempotency_conflict.',
  413: 'validation_failed with errors.reason payload_too_large: the request body is larger than the operation takes (1 MiB unless it says more).',
  422: 'validation_failed: errors maps each field path to its messages.',
  429: 'rate_limited (see Retry-After) or quota_exceeded.',
  500: 'internal_error.',
  503: 'internal_error: the database is unavailable (an outage, a timeout, a restart); retry after Retry-After.',
};

/**
 * Route files name full paths (/v1/…); inside a prefixed plugin, the prefix is added back by Fastify. The
 * dashboard mounts the /v1 route modules under its own prefix: there /v1/employees becomes <prefix>/employees.
 */
export function localUrl(app: FastifyInstance, url: string): string {
  if (app.prefix === '') return url;
  if (url.startsWith(app.prefix)) return url.slice(app.prefix.length);
  return url.startsWith('/v1/') && !app.prefix.startsWith('/v1') ? url.slice('/v1'.length) : url;
}

/**
 * Whether a body may be left out: it has no required field, so the server takes a missing body as `{}` (route's
 * preValidation) and the description marks it optional (openapi.ts). One rule for both.
 */
export function bodyIsOptional(schema: { required?: string[] } | undefined): boolean {
  return schema !== undefined && !schema.required?.length;
}

/** What every operator operation declares (/admin/v1, the admin token). */
export const ADMIN_OPERATION = { tag: 'Admin', scope: null, surface: 'admin' } as const;

/** Where a tenant route module is mounted: the public API (/v1) or the dashboard's JSON API. */
export type RouteSurface = 'api' | 'dashboard';

type In<S> = S extends TSchema ? Static<S> : undefined;

export type OperationRequest<P, Q, B> = FastifyRequest<{ Params: In<P>; Querystring: In<Q>; Body: In<B> }>;

/**
 * What a handler may return: the body of one of its success responses, as its schema types it (so a handler
 * that returns another shape does not compile), or the reply it sent itself (a status other than 200, a file).
 */
export type HandlerResult<R extends Responses> =
  | {
      [S in keyof R]: R[S] extends { schema: infer T } ? (T extends TSchema ? Static<T> : never) : never;
    }[keyof R]
  | FastifyReply;

/** An operation as declared: where it is served and which source file declared it (issue 36). */
export type DeclaredOperation = {
  operationId: string;
  method: Method;
  url: string;
  surface: NonNullable<OperationSpec<undefined, undefined, undefined>['surface']>;
  /** The declaring file, relative to src/ (modules/corrections/corrections.routes.ts). */
  file: string;
};

/**
 * Every operation declared in this process, by method and served URL: the route table that
 * scripts/operations.ts prints and the architecture test checks (every operation declared in a module).
 */
export const declaredOperations = new Map<string, DeclaredOperation>();

/** The source file (relative to src/) that called route(), from the call stack: read once per registration. */
function declaringFile(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const match = /(?:file:\/\/)?(\/[^\s()]+?\/src\/([^\s():]+\.ts)):\d+:\d+/.exec(frame);
    // A platform helper that declares routes for a module (read-routes.ts) is not where they live.
    if (match?.[2] && !match[2].startsWith('platform/')) return match[2];
  }
  return 'unknown';
}

/**
 * Registers one operation: validation, serialization, scope and OpenAPI come from this one declaration, and
 * the handler's request is typed from the same schemas. Handlers stay thin: one service call.
 */
export function route<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends Responses = Responses,
>(
  app: FastifyInstance,
  spec: OperationSpec<P, Q, B, R>,
  handler: (request: OperationRequest<P, Q, B>, reply: FastifyReply) => Promise<HandlerResult<R>>,
): void {
  const { schema, config } = operationOptions(spec);
  // A body whose fields are all optional may be left out entirely (POST …/approve with no payload). A JSON null
  // is a body, and not an object: it stays null and fails validation (422).
  const bodyOptional = bodyIsOptional(spec.body as { required?: string[] } | undefined);
  const url = localUrl(app, spec.url);
  const served = `${app.prefix}${url}`;
  declaredOperations.set(`${spec.method} ${served}`, {
    operationId: spec.operationId,
    method: spec.method,
    url: served,
    surface: spec.surface ?? 'public',
    file: declaringFile(),
  });
  app.route({
    method: spec.method,
    url,
    schema,
    config,
    ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    ...(bodyOptional
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (request.body === undefined) request.body = {};
          },
        }
      : {}),
    handler: handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

function operationOptions(
  spec: OperationSpec<TSchema | undefined, TSchema | undefined, TSchema | undefined>,
): { schema: FastifySchema; config: { access: RouteAccess; idempotency: 'store' | 'never' } } {
  const response: Record<string, unknown> = {};
  for (const [status, success] of Object.entries(spec.responses)) {
    response[status] =
      success.schema === null
        ? { description: success.description, type: 'null' }
        : {
            description: success.description,
            content: Object.fromEntries(
              (success.contentTypes ?? [success.contentType ?? 'application/json']).map((type) => [
                type,
                { schema: success.schema },
              ]),
            ),
          };
  }
  const codes = new Set<ErrorCode>(spec.errors ?? []);
  // The browser surfaces: cookie sessions, and the access links (a token, throttled per address and per link).
  const session =
    spec.surface === 'dashboard' || spec.surface === 'portal' || spec.surface === 'registry-access';
  // A kiosk signs its requests with its device key (surfaces/kiosk.ts).
  const operator = spec.surface === 'admin' || spec.surface === 'kiosk' || session;
  if (spec.scope !== 'public' && !operator) for (const code of AUTHENTICATED_ERRORS) codes.add(code);
  if (operator) {
    codes.add('unauthenticated');
    codes.add('internal_error');
  }
  // Dashboard and portal sessions are metered per minute, and the login is throttled.
  if (session) codes.add('rate_limited');
  if (spec.params) codes.add('not_found');
  if (spec.querystring || spec.body || spec.params) codes.add('validation_failed');
  const idempotent = spec.method !== 'GET' && spec.idempotency !== 'never' && !operator;
  if (idempotent) codes.add('idempotency_conflict');
  const statuses = new Set<number>([...codes].map((code) => ERROR_CATALOG[code].status));
  for (const status of spec.problemStatuses ?? []) statuses.add(status);
  // A body past the operation's limit is 413 validation_failed (errors.reason payload_too_large; issue 41).
  if (spec.body) statuses.add(413);
  // Every operation reads the database, which can be unavailable.
  statuses.add(503);
  for (const status of [...statuses].sort()) {
    response[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      content: { 'application/problem+json': { schema: ProblemSchema } },
    };
  }

  const schema: FastifySchema & Record<string, unknown> = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    response,
  };
  if (spec.description) schema.description = spec.description;
  // Declared as a header parameter by platform/openapi.ts (the idempotency hook reads and checks it).
  if (idempotent) schema['x-idempotency-key'] = true;
  if (spec.deprecated) schema.deprecated = true;
  if (spec.params) schema.params = spec.params;
  if (spec.querystring) schema.querystring = spec.querystring;
  if (spec.body) schema.body = spec.body;
  if (spec.scope === 'public') {
    schema.security = [];
  } else if (spec.surface === 'admin') {
    schema.security = [{ adminToken: [] }];
  } else if (session) {
    schema.security = [{ session: [] }];
  } else if (spec.surface === 'kiosk') {
    schema.security = [{ kioskSignature: [] }];
  } else {
    schema.security = [{ apiKey: spec.scope === null ? [] : [spec.scope] }];
    schema['x-required-scope'] = spec.scope;
  }

  const access: RouteAccess = { scope: spec.scope };
  if (spec.allowInactiveService) access.allowInactiveService = true;
  if (spec.legacyScope) access.legacyScope = spec.legacyScope;
  if (spec.budget) access.budget = spec.budget;
  return { schema, config: { access, idempotency: spec.idempotency ?? 'store' } };
}
