import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are safe and useful in a log line; every other value is redacted. */
const LOGGED_QUERY_PARAMETERS = new Set([
  'limit',
  'status',
  'from',
  'to',
  'employee_id',
  'updated_since',
  'month',
]);
const REDACTED = '[redacted]';

/**
 * A request URL as it may be logged: the path, and the query with every value redacted except a few harmless
 * ones. Signed download addresses (`signature`), keys sent as `?api_key=` or `?access_token=`, cursors and
 * searches (personal data), and access links' tokens in the path never reach the log.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return redactPath(url);
  const query = new URLSearchParams(url.slice(mark + 1));
  const kept = [...query].map(([name, value]) =>
    LOGGED_QUERY_PARAMETERS.has(name) ? `${name}=${encodeURIComponent(value)}` : `${name}=${REDACTED}`,
  );
  return `${redactPath(url.slice(0, mark))}?${kept.join('&')}`;
}

/**
 * An access link's token is a credential in the path (`/registry-access/<token>/…`, issue 35): a grant opens a
 * company's registry, national ids included, for up to 90 days, so the token never reaches a log line.
 */
function redactPath(path: string): string {
  return path.replace(/^\/registry-access\/[^/?#]+/, `/registry-access/${REDACTED}`);
}

/** Pino serializers for Fastify's request log: the URL redacted, and no headers (they carry credentials). */
export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    };
  },
};
