import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/database.ts';

/** The stable error codes of the public contract (spec, Errors). Clients program against these. */
export const ERROR_CATALOG = {
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
    about: 'The API key is missing, invalid, revoked or expired.',
  },
  invalid_scope: {
    status: 403,
    title: 'Invalid scope',
    about: 'The API key lacks the scope named in errors.required_scope.',
  },
  subscription_inactive: {
    status: 403,
    title: 'Subscription inactive',
    about:
      'The company has no active service: suspended or archived, no subscription, suspended subscription, expired trial, or a canceled or expired subscription.',
  },
  addon_disabled: {
    status: 403,
    title: 'Addon disabled',
    about: 'The public API addon is not active for the company.',
  },
  role_forbidden: {
    status: 403,
    title: 'Role forbidden',
    about:
      "The dashboard's administrator has a role that does not allow the operation (errors.role names it); the public API never answers it.",
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    about:
      'The body or the parameters are invalid. errors maps each field path (email, params.month, query.limit) to a list of messages.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    about: 'The resource does not exist or belongs to another company.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    about: 'The request conflicts with the current state of the resource.',
  },
  idempotency_conflict: {
    status: 409,
    title: 'Idempotency conflict',
    about: 'The Idempotency-Key was already used with a different method, path or body.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    about: 'The per-minute limit of the key is exhausted; retry after Retry-After seconds.',
  },
  quota_exceeded: {
    status: 429,
    title: 'Quota exceeded',
    about: 'The monthly request quota of the tenant is exhausted.',
  },
  billing_required: {
    status: 402,
    title: 'Billing required',
    about: 'The plan does not allow the action, e.g. adding an employee with no free seat.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    about: 'An unexpected error; it has been logged with the request id.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Retry-After of a 503: the database is unavailable (an outage, a timeout, a restart). */
export const UNAVAILABLE_RETRY_SECONDS = 5;
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

export type ProblemErrors = Record<string, unknown>;

/** An expected failure. Thrown anywhere; turned into problem+json by the one error handler below. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ProblemErrors | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { status?: number; errors?: ProblemErrors; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOG[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found.`);

/** A validation failure on named fields: `invalid({ email: 'is already used' })`. */
export function invalid(fields: Record<string, string | string[]>, detail?: string): ApiError {
  const errors = Object.fromEntries(
    Object.entries(fields).map(([field, messages]) => [
      field,
      Array.isArray(messages) ? messages : [messages],
    ]),
  );
  return new ApiError('validation_failed', detail ?? describeFields(errors), { errors });
}

/** The detail of a validation failure: the one field's problem, or every invalid field named (none hidden). */
function describeFields(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors);
  const first = entries[0];
  if (!first) return 'The request is invalid.';
  if (entries.length === 1) return `${first[0]} ${first[1].join('; ') || 'is invalid'}.`;
  return `${entries.length} fields are invalid: ${entries.map(([field, messages]) => `${field} ${messages.join('; ')}`).join(', ')}.`;
}

export type Problem = {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  errors: ProblemErrors;
};

const PREFIX_BY_CONTEXT: Readonly<Record<string, string>> = {
  body: '',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function joinPath(prefix: string, pointer: string, property?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) parts.push(property);
  const path = parts.join('.');
  if (prefix === '') return path === '' ? 'body' : path;
  return path === '' ? prefix : `${prefix}.${path}`;
}

/** Ajv errors to `{ "field.path": ["message", …] }`. */
const plural = (count: unknown, one: string, many: string) => `${count} ${Number(count) === 1 ? one : many}`;

/** A validator error in plain words (Ajv's own text, "must NOT have fewer than 1 items", is for developers). */
function plainMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'minLength':
      return Number(params.limit) === 1
        ? 'must not be empty'
        : `must have at least ${plural(params.limit, 'character', 'characters')}`;
    case 'maxLength':
      return `must have at most ${plural(params.limit, 'character', 'characters')}`;
    case 'minItems':
      return `needs at least ${plural(params.limit, 'item', 'items')}`;
    case 'maxItems':
      return `takes at most ${plural(params.limit, 'item', 'items')}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'minimum':
      return `must be at least ${params.limit}`;
    case 'maximum':
      return `must be at most ${params.limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${params.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${params.limit}`;
    case 'multipleOf':
      return `must be a multiple of ${params.multipleOf}`;
    case 'minProperties':
      return `needs at least ${plural(params.limit, 'field', 'fields')}`;
    case 'type':
      return `must be ${/^[aeiou]/.test(String(params.type)) ? 'an' : 'a'} ${String(params.type).replace(',', ' or ')}`;
    case 'format':
      return `must be a valid ${String(params.format).replaceAll('-', ' ')}`;
    case 'pattern':
      return 'is not in the expected form';
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * A value that matches no branch of a union (`anyOf`: literals, or a value or null) gets one message naming
 * what it may be (`must be one of: es, en, or null`), not each branch's refusal plus the validator's own
 * "must match a schema in anyOf".
 */
function collapseUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf');
  if (unions.length === 0) return errors;
  // An error under a union (at any depth: a union of a union and null) belongs to the outermost one.
  const within = (error: ErrorObject, union: ErrorObject) =>
    union !== error &&
    union.instancePath === error.instancePath &&
    error.schemaPath.startsWith(`${union.schemaPath}/`);
  const outermost = unions.filter((union) => !unions.some((other) => within(union, other)));
  const branchOf = (error: ErrorObject) => outermost.find((union) => within(error, union));
  const result: ErrorObject[] = [];
  for (const error of errors) {
    if (branchOf(error)) continue;
    if (error.keyword !== 'anyOf') {
      result.push(error);
      continue;
    }
    const branches = errors.filter((other) => branchOf(other) === error && other.keyword !== 'anyOf');
    const values = branches
      .filter((branch) => branch.keyword === 'const' || branch.keyword === 'enum')
      .flatMap((branch) => {
        const params = branch.params as { allowedValue?: unknown; allowedValues?: unknown[] };
        return branch.keyword === 'const' ? [params.allowedValue] : (params.allowedValues ?? []);
      })
      .map(String);
    // The null branch's refusal ("must be null") tells nothing of what a value should have been.
    const isNullBranch = (branch: ErrorObject) =>
      branch.keyword === 'type' && (branch.params as { type?: unknown }).type === 'null';
    const nullable = branches.some(isNullBranch);
    const first = branches.find((branch) => !isNullBranch(branch)) ?? branches[0];
    if (values.length > 0) {
      result.push({
        ...error,
        keyword: 'enum',
        params: { allowedValues: nullable ? [...values, 'null'] : values },
      });
    } else if (first) {
      result.push(first);
    } else {
      result.push(error);
    }
  }
  return result;
}

export function validationErrors(errors: ErrorObject[], context: string): Record<string, string[]> {
  const prefix = Object.hasOwn(PREFIX_BY_CONTEXT, context) ? (PREFIX_BY_CONTEXT[context] as string) : context;
  // Field names come from the client: a Map, so that "toString" or "__proto__" are names like any other and
  // never reach Object.prototype.
  const result = new Map<string, string[]>();
  const add = (path: string, message: string) => {
    const list = result.get(path) ?? [];
    if (!list.includes(message)) list.push(message);
    result.set(path, list);
  };
  for (const error of collapseUnions(errors)) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') {
      add(joinPath(prefix, error.instancePath, String(params.missingProperty)), 'is required');
    } else if (error.keyword === 'additionalProperties') {
      add(joinPath(prefix, error.instancePath, String(params.additionalProperty)), 'is not an allowed field');
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      add(joinPath(prefix, error.instancePath), `must be one of: ${params.allowedValues.join(', ')}`);
    } else {
      add(joinPath(prefix, error.instancePath), plainMessage(error));
    }
  }
  return Object.fromEntries(result);
}

type ErrorWithValidation = FastifyError & { validation?: ErrorObject[]; validationContext?: string };

/** Maps anything thrown to an ApiError: ours as is, Fastify's request errors to 422/413, the rest to 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as ErrorWithValidation;
  if (fastifyError?.validation) {
    const errors = validationErrors(fastifyError.validation, fastifyError.validationContext ?? 'body');
    return new ApiError('validation_failed', describeFields(errors), { errors });
  }
  const code = typeof fastifyError?.code === 'string' ? fastifyError.code : '';
  const status = fastifyError?.statusCode;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    // The code stays validation_failed (v1 never renames one); errors.reason names the case (issue 41). The
    // limit is the operation's (1 MiB, or 8 MiB for a bulk one; docs/errors/validation_failed).
    return new ApiError('validation_failed', 'The request body is larger than this operation takes.', {
      status: 413,
      errors: { body: ['is too large'], reason: 'payload_too_large' },
    });
  }
  if (code === 'FST_ERR_BAD_URL' || code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ApiError('not_found', 'The URL names no resource.');
  }
  if (code === 'FST_ERR_CTP_INVALID_JSON_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return new ApiError('validation_failed', 'The request body could not be read.', {
      errors: { body: ['could not be read'] },
    });
  }
  if (code === '22021' || code === '22P05') {
    // PostgreSQL refused a character of the input (an invalid or untranslatable byte sequence).
    return new ApiError('validation_failed', 'The request contains a character that cannot be stored.', {
      errors: { body: ['contains a character that cannot be stored'] },
    });
  }
  if (code.startsWith('FST_ERR_CTP_') || (status === 400 && code !== '')) {
    const message =
      code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'must be sent with Content-Type: application/json'
        : code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'must not be empty when Content-Type is application/json'
          : 'is not valid JSON';
    return new ApiError('validation_failed', `The request body ${message}.`, { errors: { body: [message] } });
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      'internal_error',
      'The database is unavailable. Retry after the Retry-After seconds.',
      {
        status: 503,
        headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) },
      },
    );
  }
  if (status === 400 && fastifyError instanceof SyntaxError) {
    return new ApiError('validation_failed', 'The request body is not valid JSON.', {
      errors: { body: ['is not valid JSON'] },
    });
  }
  return new ApiError(
    'internal_error',
    'An internal error occurred. It has been logged with the request id.',
  );
}

export function problemBody(error: ApiError, docsUrl: string): Problem {
  return {
    type: `${docsUrl}/errors/${error.code}`,
    title: ERROR_CATALOG[error.code].title,
    status: error.status,
    code: error.code,
    detail: error.message,
    errors: error.errors ?? {},
  };
}

const answeredCodes = new WeakMap<FastifyRequest, ErrorCode>();

/** The problem `code` a request was answered with, if it ended in an error (the metrics count refusals by it). */
export const problemCodeOf = (request: FastifyRequest): ErrorCode | undefined => answeredCodes.get(request);

/** During a database outage, a failing request's stack is logged at most this often (the first of each run). */
export const OUTAGE_STACK_INTERVAL_MS = 60_000;

/**
 * The error handler's memory of the current outage: when its stack was last logged. A monotonic clock: this is
 * logging policy, not a fact of the record.
 */
let outageStackLoggedAt: number | null = null;

/**
 * How a failure is logged (issue 37): a database outage is one short line per request (its request id and the
 * database error's class), with the stack once per outage (once a minute while it lasts), not a 1.2 KB stack
 * per request; any other 5xx with its stack.
 */
function logFailure(request: FastifyRequest, error: unknown, apiError: ApiError): void {
  if (apiError.status < 500) return;
  if (apiError.status === 503 && isDatabaseUnavailable(error)) {
    const failure = error as { code?: unknown; name?: unknown };
    const errorClass = typeof failure?.code === 'string' ? failure.code : String(failure?.name ?? 'Error');
    const now = performance.now();
    const first = outageStackLoggedAt === null || now - outageStackLoggedAt >= OUTAGE_STACK_INTERVAL_MS;
    if (first) outageStackLoggedAt = now;
    request.log.warn(
      { requestId: request.id, code: 'database_unavailable', errorClass, ...(first ? { err: error } : {}) },
      'database unavailable',
    );
    return;
  }
  request.log.error({ err: error, requestId: request.id }, 'internal error');
}

/** The single error handler: everything becomes RFC 9457 problem+json; 5xx internals are logged, never sent. */
export function registerErrorHandler(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    answeredCodes.set(request, apiError.code);
    logFailure(request, error, apiError);
    if (apiError.headers) reply.headers(apiError.headers);
    return reply
      .status(apiError.status)
      .type('application/problem+json')
      .send(problemBody(apiError, docsUrl));
  });
}
