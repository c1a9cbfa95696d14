import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import net from 'node:net';
import { Agent, buildConnector, Client, type Dispatcher, errors } from 'undici';
import { cachedIn } from '../../platform/bounded-cache.ts';
import {
  hostOf,
  portProblem,
  RefusedTarget,
  type ResolvedAddress,
  resolveTarget,
  type TargetPolicy,
} from './target.ts';

/** A receiver must answer 2xx within this time (spec, Delivery and retries 1). */
export const DELIVERY_TIMEOUT_MILLISECONDS = 10_000;
export const USER_AGENT = 'Jornada-Webhooks/1.0';

export type SignedRequest = {
  url: string;
  /** The event id: the webhook-id header, the same on every attempt. */
  eventId: string;
  /** The instant of this attempt: the webhook-timestamp header. */
  timestamp: Date;
  /** The exact bytes sent and signed. */
  body: string;
  secret: string;
};

/** How much of a receiver's answer is kept for the delivery detail. */
export const RESPONSE_BODY_BYTES = 4096;

export type AttemptOutcome = {
  succeeded: boolean;
  responseStatus: number | null;
  /** The headers sent (null when nothing was sent: a refused address, a failed resolution). */
  requestHeaders?: Record<string, string> | null;
  /** The first RESPONSE_BODY_BYTES of the answer's body, as text; null when no answer came. */
  responseBody?: string | null;
  /** What the API shows (last_error): never which kind of network failure it was. */
  error: string | null;
  /** What only the log shows: the network error's code, for the operator. */
  detail?: string;
};

/** The decoded signing keys, by secret (as key objects: createHmac takes one without copying its bytes again). */
const SIGNING_KEYS = new Map<string, KeyObject>();

/**
 * The Standard Webhooks headers: v1 HMAC-SHA256 over `id.timestamp.body`, keyed by the base64 after whsec_.
 * Computed with node:crypto (decision 0019): the same signature as the standardwebhooks library's `sign`
 * (test/webhooks-sender.test.ts), at a fifth of its cost, since that library hashes in JavaScript.
 */
export function signatureHeaders(request: Omit<SignedRequest, 'url'>): Record<string, string> {
  const key = cachedIn(SIGNING_KEYS, request.secret, (secret) =>
    createSecretKey(Buffer.from(secret.slice(secret.indexOf('_') + 1), 'base64')),
  );
  const timestamp = String(Math.floor(request.timestamp.getTime() / 1000));
  const signature = createHmac('sha256', key)
    .update(`${request.eventId}.${timestamp}.${request.body}`)
    .digest('base64');
  return {
    'webhook-id': request.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

function failure(
  error: string,
  responseStatus: number | null = null,
  detail?: string,
  requestHeaders?: Record<string, string>,
): AttemptOutcome {
  return {
    succeeded: false,
    responseStatus,
    error,
    ...(detail === undefined ? {} : { detail }),
    ...(requestHeaders === undefined ? {} : { requestHeaders }),
  };
}

/**
 * One message for every way a connection can fail: telling a refused port (ECONNREFUSED) from an open one that
 * does not speak TLS (ECONNRESET, EPROTO) would make webhooks a port scanner of other people's hosts.
 */
export const CONNECTION_FAILED = 'connection failed';

/**
 * Connections kept alive between attempts (issue 19), through undici: a busy endpoint is sent its deliveries
 * over a few open connections (up to CONNECTIONS_PER_ORIGIN) instead of one new connection (and TLS handshake)
 * per attempt. Every new connection resolves the host and checks every address against the policy first (SSRF),
 * then connects to the checked address itself (the host name is kept for TLS: SNI and the certificate's name),
 * so a connection only ever reaches a checked address, and a DNS answer that changes later (rebinding) cannot
 * redirect it. A free connection closes after 4 s, before the usual 5 s of a receiver's keep-alive (sooner
 * when the receiver announces less); an attempt on a connection the receiver closed before answering is sent
 * once more.
 */
const CONNECTIONS_PER_ORIGIN = 64;
/**
 * undici's own limits on the wait for an answer's headers and body (300 s each by default) are off: an attempt's
 * limit is ours (exchange's deadline, DELIVERY_TIMEOUT_MILLISECONDS, which aborts the request and so closes its
 * connection), and undici's cost a timer to set and clear at each phase of every request (issue 19).
 */
const WITHOUT_UNDICI_TIMERS = { headersTimeout: 0, bodyTimeout: 0 };
const KEEP_ALIVE_MILLISECONDS = 4_000;
type Dispatchers = { agent: Agent; connect: buildConnector.connector; targets: Map<string, Target> };
const DISPATCHERS = new WeakMap<TargetPolicy, Dispatchers>();

/** An endpoint URL as an attempt uses it, parsed once per policy (not at every attempt). */
type Target = { origin: string; path: string; problem: string | null };

function targetOf(targets: Map<string, Target>, href: string, policy: TargetPolicy): Target {
  return cachedIn(targets, href, () => {
    const url = new URL(href);
    // The port is checked again, against this process's policy: the allowed ports may have narrowed since the
    // endpoint was registered.
    return { origin: url.origin, path: `${url.pathname}${url.search}`, problem: portProblem(url, policy) };
  });
}

/** The policy's pool of kept-alive connections, the checked connect that opens each of them, parsed URLs. */
function dispatcherFor(policy: TargetPolicy): Dispatchers {
  const known = DISPATCHERS.get(policy);
  if (known) return known;
  const connector = buildConnector({ timeout: DELIVERY_TIMEOUT_MILLISECONDS });
  const connect: buildConnector.connector = (options, callback) => {
    const url = new URL(`${options.protocol}//${options.host}`);
    resolveTarget(url, policy).then(
      (addresses) => {
        // The checked address, as a literal: net.connect does not resolve it again.
        const address = (addresses[0] as ResolvedAddress).address;
        connector(
          { ...options, hostname: address, servername: options.servername ?? tlsName(url) },
          callback,
        );
      },
      (error: unknown) => callback(error as Error, null),
    );
  };
  const agent = new Agent({
    connections: CONNECTIONS_PER_ORIGIN,
    keepAliveTimeout: KEEP_ALIVE_MILLISECONDS,
    keepAliveMaxTimeout: KEEP_ALIVE_MILLISECONDS,
    ...WITHOUT_UNDICI_TIMERS,
    connect,
  });
  const dispatcher = { agent, connect, targets: new Map<string, Target>() };
  DISPATCHERS.set(policy, dispatcher);
  return dispatcher;
}

/** The name a TLS connection presents and verifies: the URL's host, unless it is an address literal. */
function tlsName(url: URL): string | undefined {
  return net.isIP(hostOf(url)) === 0 ? url.hostname : undefined;
}

/**
 * The kept start of an answer's body, as text PostgreSQL can store: a NUL (which a text column refuses) becomes
 * U+FFFD, as an invalid UTF-8 sequence already does.
 */
function keptText(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

/** An answer: its status and the first RESPONSE_BODY_BYTES of its body. */
type Answer = { status: number; chunks: Buffer[] };

/** The time limit ended an attempt before an answer's status came. */
class NoAnswer extends Error {}

/**
 * One request through undici's dispatcher (issue 19), with a handler of our own rather than `request()`: an
 * attempt needs an answer's status and the start of its body, so it makes no body stream and no
 * AbortController. (undici's adapter for this handler API still parses the answer's headers into an object.)
 * Resolves when the answer ends, fails or is cut short (by the time limit, at `deadline` on performance.now()'s
 * clock, or a reset), with what came by then: once a status came, it decides. Rejects when no status came: with
 * the connection's error, or NoAnswer at the deadline (also for a request still waiting for a connection, which
 * is then aborted as soon as it gets one).
 */
function sendOnce(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  deadline: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let status = 0;
    let expired = false;
    let kept = 0;
    const chunks: Buffer[] = [];
    const end = (error: Error | null) => {
      clearTimeout(timer);
      if (status !== 0) resolve({ status, chunks });
      else reject(error ?? new NoAnswer());
    };
    const timer = setTimeout(
      () => {
        expired = true;
        controller?.abort(new NoAnswer());
        end(null);
      },
      Math.max(0, deadline - performance.now()),
    );
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (expired) started.abort(new NoAnswer());
      },
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData(_controller, chunk) {
        if (kept >= RESPONSE_BODY_BYTES) return;
        const part = chunk.subarray(0, RESPONSE_BODY_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      },
      onResponseEnd() {
        end(null);
      },
      onResponseError(_controller, error) {
        end(error);
      },
    });
  });
}

/** A connection closed by the receiver before it answered (a kept-alive one it had already dropped). */
function closedBeforeAnswer(error: unknown): boolean {
  return error instanceof errors.SocketError;
}

/**
 * One delivery attempt: resolve and check the target (for a new connection), POST the signed body to the checked
 * address, and judge the answer. 2xx within the time limit succeeds; a 3xx is never followed; anything else
 * fails. Never throws.
 */
export async function attemptDelivery(request: SignedRequest, policy: TargetPolicy): Promise<AttemptOutcome> {
  const { agent, connect, targets } = dispatcherFor(policy);
  const target = targetOf(targets, request.url, policy);
  if (target.problem !== null) return failure(`refused: url ${target.problem}`);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(request.body)),
    'user-agent': USER_AGENT,
    ...signatureHeaders(request),
  };
  const deadline = performance.now() + DELIVERY_TIMEOUT_MILLISECONDS;
  const options: Dispatcher.DispatchOptions = {
    origin: target.origin,
    path: target.path,
    method: 'POST',
    headers,
    body: request.body,
  };
  let fresh: Client | null = null;
  try {
    let answer: Answer;
    try {
      answer = await sendOnce(agent, options, deadline);
    } catch (error) {
      if (!closedBeforeAnswer(error)) throw error;
      // Sent once more, on a connection of its own (checked like any other), closed after this attempt.
      fresh = new Client(target.origin, { connect, pipelining: 1, ...WITHOUT_UNDICI_TIMERS });
      answer = await sendOnce(fresh, options, deadline);
    }
    const status = answer.status;
    const judged =
      status >= 200 && status < 300
        ? { succeeded: true, responseStatus: status, error: null }
        : status >= 300 && status < 400
          ? failure(`redirect ${status} not followed`, status)
          : failure(`answered ${status}`, status);
    // Once an answer came, its status decides. The first 4 KB of its body are kept for the delivery detail.
    return { ...judged, responseBody: keptText(answer.chunks), requestHeaders: headers };
  } catch (error) {
    if (error instanceof RefusedTarget) return failure(`refused: url ${error.message}`);
    if (error instanceof NoAnswer)
      return failure(`no answer within ${DELIVERY_TIMEOUT_MILLISECONDS / 1000} s`, null, undefined, headers);
    const code = (error as NodeJS.ErrnoException).code;
    return failure(
      CONNECTION_FAILED,
      null,
      code ?? (error instanceof Error ? error.message : String(error)),
      headers,
    );
  } finally {
    fresh?.close().catch(() => {});
  }
}
