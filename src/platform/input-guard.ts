import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalid, problemBody, toApiError } from './errors.ts';

/**
 * No identifier of the API is longer than this. A longer path segment names nothing: 404, through the normal
 * request pipeline (so with X-Request-Id and the rate-limit headers), where Fastify's router would answer a bare
 * 414 of its own.
 */
export const MAX_ID_LENGTH = 100;
/** The router matches parameters up to this length, so that longer ones reach the rule above. */
export const ROUTER_MAX_PARAM_LENGTH = 8 * 1024;

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** No request body nests deeper than this; a deeper one names nothing the API reads (issue 35: 422, not a 500). */
export const MAX_INPUT_DEPTH = 64;

/**
 * The dotted paths of the strings (values and property names) that contain U+0000, walked with a stack of its
 * own (a body nested 20,000 levels deep overflowed the call stack of a recursive walk); `tooDeep` is set for a
 * value nested deeper than MAX_INPUT_DEPTH.
 */
function nulFields(root: unknown, rootPath: string, found: string[], limits: { tooDeep: boolean }): string[] {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [
    { value: root, path: rootPath, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    const at = (key: string) => (path === '' ? key : `${path}.${key}`);
    if (typeof value === 'string') {
      if (value.includes(NUL)) found.push(path === '' ? 'body' : path);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      limits.tooDeep = true;
      continue;
    }
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (const [key, item] of entries.reverse()) {
      if (!Array.isArray(value) && key.includes(NUL)) found.push(at(key.replaceAll(NUL, '\\u0000')));
      else stack.push({ value: item, path: at(key), depth: depth + 1 });
    }
  }
  return found;
}

/**
 * Input rules that hold for every route, before its schema: an over-long path parameter is 404, and no string
 * anywhere in the request may contain U+0000 (PostgreSQL's text types cannot store it: without this rule the
 * database refused it with a 500).
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const value of Object.values(params)) {
      if (typeof value === 'string' && value.length > MAX_ID_LENGTH) {
        throw new ApiError('not_found', `No resource has an identifier of ${value.length} characters.`);
      }
    }
    const limits = { tooDeep: false };
    const fields = [
      ...nulFields(params, 'path', [], limits),
      ...nulFields(request.query, 'query', [], limits),
      ...nulFields(request.body, '', [], limits),
    ];
    if (limits.tooDeep) throw invalid({ body: `must not nest deeper than ${MAX_INPUT_DEPTH} levels` });
    if (fields.length > 0) throw invalid(Object.fromEntries(fields.map((field) => [field, NUL_MESSAGE])));
  });
}

/**
 * Errors Fastify raises before a route is chosen (a malformed URL, an over-long parameter) go out as problem+json
 * with the standard headers. Fastify hands them a reply outside every plugin context, where neither the error
 * handler nor the onSend hooks apply, so both are applied here.
 */
export function frameworkErrors(docsUrl: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const apiError = toApiError(error);
    standardHeaders(request, reply, 'application/problem+json');
    reply
      .status(apiError.status)
      .type('application/problem+json')
      .send(JSON.stringify(problemBody(apiError, docsUrl)));
  };
}

const TIMEOUT: [number, string, string] = [408, 'Request Timeout', 'The request was not received in time.'];
const CLIENT_ERROR_STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: TIMEOUT,
  HPE_HEADERS_TIMEOUT: TIMEOUT,
};

/**
 * A request Node's HTTP parser refuses (an unknown method, a malformed request line, headers too large) or one
 * that timed out never becomes a Fastify request: answer it on the socket, as problem+json like every other
 * error, and close the connection.
 */
export function clientErrorHandler(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, detail] = CLIENT_ERROR_STATUS[error.code ?? ''] ?? [
      400,
      'Bad Request',
      'The request is not valid HTTP/1.1.',
    ];
    const body = JSON.stringify(problemBody(new ApiError('validation_failed', detail, { status }), docsUrl));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}

function standardHeaders(request: FastifyRequest, reply: FastifyReply, type: string): void {
  reply.header('X-Request-Id', request.id);
  reply.header('X-Content-Type-Options', 'nosniff');
  if (PRIVATE_TYPES.test(type) && !reply.hasHeader('cache-control'))
    reply.header('Cache-Control', 'no-store');
}

/** What no cache may keep: API answers, and downloads of the registry (PDF, CSV, XLSX: personal data; issue 35). */
const PRIVATE_TYPES = /json|pdf|csv|spreadsheetml/;

/**
 * Every response: X-Request-Id, `X-Content-Type-Options: nosniff`, and `Cache-Control: no-store` on JSON
 * (API answers carry secrets: key and webhook secrets, signed download addresses, CSRF tokens) and on the
 * registry's downloads (PDF, CSV, XLSX: the access link's, the portal's).
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    standardHeaders(request, reply, String(reply.getHeader('content-type') ?? ''));
    return payload;
  });
}
