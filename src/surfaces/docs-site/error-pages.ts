import { ApiError, ERROR_CATALOG, type ErrorCode } from '../../platform/errors.ts';

/**
 * What each problem `code` means for an integration, for its page at /docs/errors/{code}: when the API answers
 * it, what to do about it, and an example of the body (built by the error handler's own `problemBody`).
 */
type ErrorPage = { when: string[]; action: string[]; example: ApiError; headers?: Record<string, string> };

export const ERROR_PAGES: Record<ErrorCode, ErrorPage> = {
  unauthenticated: {
    when: [
      'The request has no `Authorization: Bearer <key>` header, or the key is unknown, revoked or expired.',
      'On the dashboard and portal APIs: the session cookie is missing or has expired.',
      'With status 403 (not 401), on a report’s download address: `errors.reason` says why. `download_invalid`: the address was altered or is not one; `download_expired`: its 5 minutes have passed; `download_used`: it was used once already. GET the report again for a fresh address.',
    ],
    action: [
      'Send a valid key. A key that used to work may have been revoked (the dashboard shows why) or have expired.',
      'Do not retry a 401 unchanged: it will not start working by itself.',
    ],
    example: new ApiError('unauthenticated', 'The API key is invalid, revoked or expired.'),
  },
  invalid_scope: {
    when: ['The key is valid but lacks the scope the operation needs; `errors.required_scope` names it.'],
    action: [
      'Create a key with that scope (keys cannot gain scopes), or use the key meant for that part of the integration.',
    ],
    example: new ApiError('invalid_scope', 'This operation requires the scope org:fichajes:write.', {
      errors: { required_scope: 'org:fichajes:write' },
    }),
  },
  subscription_inactive: {
    when: [
      'The company has no active service: it is suspended or archived, or its subscription or trial has ended.',
    ],
    action: [
      'Nothing the integration can fix: the company must renew. Stop retrying until an administrator says so; webhook deliveries resume by themselves once the service is active again.',
    ],
    example: new ApiError('subscription_inactive', 'The company has no active service.'),
  },
  addon_disabled: {
    when: [
      'The company has switched the public API addon off. Switching it off revokes every key of the company and of its sandbox at once, so a client of `/v1` meets **401 `unauthenticated`** from then on, not this code.',
      'This code is what the dashboard’s session answers on its developer operations (its keys and webhooks, in live or test mode) while the addon is off, and what creating or rotating a key answers then.',
    ],
    action: [
      'The company switches the addon on again in the dashboard (Settings) and creates new keys: the revoked ones stay revoked.',
    ],
    example: new ApiError('addon_disabled', 'The public API addon is not active for this company.'),
  },
  role_forbidden: {
    when: [
      "Only on the dashboard's API: the administrator's role (owner, admin, team_lead, payroll) does not allow the operation; `errors.role` names the role. A key of the public API never gets it.",
    ],
    action: [
      'An owner of the company gives the administrator another role (Settings, Administrators); the dashboard hides what a role may not do.',
    ],
    example: new ApiError('role_forbidden', 'Your role (payroll) does not allow this.', {
      errors: { role: 'payroll' },
    }),
  },
  validation_failed: {
    when: [
      'A body, query or path parameter is missing, malformed or out of range, or the body has a field the operation does not know (unknown fields are refused, not ignored).',
      'The body is not JSON.',
      'With status 413: the body is larger than the operation takes (1 MiB; 8 MiB for the bulk operations, which say so). `errors.reason` is then `payload_too_large`.',
    ],
    action: [
      'Read `errors`: each invalid field (`email`, `params.month`, `query.limit`, `add[0].timestamp`) maps to its messages. Fix the request; retrying it unchanged fails the same way.',
    ],
    example: new ApiError(
      'validation_failed',
      'Check these 2 fields: email must be a valid email; hire_date is required.',
      {
        errors: { email: ['must be a valid email'], hire_date: ['is required'] },
      },
    ),
  },
  not_found: {
    when: [
      'The resource does not exist, or it belongs to another company (the API never tells the two apart).',
      'The path names no operation (an unknown URL).',
      'With status 405: the path is known but not with this method. The answer carries `Allow`, and `errors.reason` is `method_not_allowed` with `errors.allowed` listing the methods.',
    ],
    action: ['Check the id and the key: a live key sees live data only, a test key the sandbox only.'],
    example: new ApiError('not_found', 'Employee not found.'),
  },
  conflict: {
    when: [
      'The request contradicts the resource’s state: approving an absence that is already decided, an absence that overlaps another, a check-in or holiday in a closed month, a correction whose check-ins changed.',
      'A request with the same `Idempotency-Key` is still being processed: this answer carries `Retry-After: 1`.',
    ],
    action: [
      'Read the resource again and decide from its current state. For a month that is closed, record the change with a correction. For an idempotency key in flight (the answer has `Retry-After`), retry after it with the same key.',
    ],
    example: new ApiError('conflict', 'The month 2026-10 is already closed.'),
  },
  idempotency_conflict: {
    when: ['The `Idempotency-Key` was used before, within 24 hours, with another method, path or body.'],
    action: ['Use a new key for a new request; reuse a key only to retry exactly the same request.'],
    example: new ApiError(
      'idempotency_conflict',
      'This Idempotency-Key was already used with a different method, path or body.',
    ),
  },
  rate_limited: {
    when: [
      'The key has used its requests for the current minute (live keys 120, test keys 30), or too many reports are in generation at once, or too many failed logins came from one address.',
    ],
    action: [
      'Wait the `Retry-After` seconds, then retry. `X-RateLimit-Remaining` and `X-RateLimit-Reset` on every response let an integration pace itself before it gets here.',
    ],
    example: new ApiError('rate_limited', 'Rate limit of 120 requests per minute exceeded.', {
      headers: { 'Retry-After': '17' },
    }),
    headers: { 'Retry-After': '17', 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '0' },
  },
  quota_exceeded: {
    when: ['The company has used its monthly request quota (`X-Service-Quota-Remaining` reached 0).'],
    action: [
      'Requests resume at the start of the next month (UTC): `errors.resets_at` gives that instant and `Retry-After` the seconds until it. Cache what does not change and use `updated_since` to sync only what did.',
    ],
    example: new ApiError(
      'quota_exceeded',
      'The monthly quota of 12000 requests is exhausted; it resets at 2026-12-01T00:00:00Z.',
      { errors: { resets_at: '2026-12-01T00:00:00Z' } },
    ),
  },
  billing_required: {
    when: ['The plan does not allow the action: hiring an employee when every seat is taken.'],
    action: ['The company frees a seat (terminates an employee) or adds seats to its plan.'],
    example: new ApiError(
      'billing_required',
      'Every seat of the plan is taken by an active employee. Terminate an employee or add seats.',
    ),
  },
  internal_error: {
    when: [
      'Something failed on the service’s side (500), or the database is unavailable (503 with `Retry-After`).',
    ],
    action: [
      'Retry a 503 after `Retry-After`. A 500 is a bug: retry idempotent requests (with the same `Idempotency-Key`) a few times with backoff, and report the `X-Request-Id` to the operator.',
    ],
    example: new ApiError(
      'internal_error',
      'An internal error occurred. It has been logged with the request id.',
    ),
  },
};

/** The statuses and titles stay the error handler's (ERROR_CATALOG), so a page cannot drift from a response. */
export const errorTitle = (code: ErrorCode) => ERROR_CATALOG[code].title;
export const errorStatus = (code: ErrorCode) => ERROR_CATALOG[code].status;
