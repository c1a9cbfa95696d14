import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { pinnedLookup, portProblem, RefusedTarget, resolveTarget, type TargetPolicy } from './target.ts';

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

/** The Standard Webhooks headers: v1 HMAC-SHA256 over `id.timestamp.body`, keyed by the secret after whsec_. */
export function signatureHeaders(request: Omit<SignedRequest, 'url'>): Record<string, string> {
  return {
    'webhook-id': request.eventId,
    'webhook-timestamp': String(Math.floor(request.timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(request.secret).sign(request.eventId, request.timestamp, request.body),
  };
}

function failure(error: string, responseStatus: number | null = null, detail?: string): AttemptOutcome {
  return { succeeded: false, responseStatus, error, ...(detail === undefined ? {} : { detail }) };
}

/**
 * One message for every way a connection can fail: telling a refused port (ECONNREFUSED) from an open one that
 * does not speak TLS (ECONNRESET, EPROTO) would make webhooks a port scanner of other people's hosts.
 */
export const CONNECTION_FAILED = 'connection failed';

/**
 * Connections kept alive between attempts (issue 19): a busy endpoint is sent its deliveries over a few open
 * connections instead of one new connection (and TLS handshake) per attempt. A socket is pooled by host and port;
 * a new one is only opened through the request's `lookup`, which answers the addresses just checked for SSRF, so
 * every connection goes to a checked address. A free socket is closed after 4 s, before the usual 5 s of a
 * receiver's keep-alive, and an attempt whose reused socket turns out closed is sent once more on a new one.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 4_000 }),
};

/**
 * One delivery attempt: resolve and check the target, POST the signed body to the checked address, and judge
 * the answer. 2xx within the time limit succeeds; a 3xx is never followed; anything else fails. Never throws.
 */
export async function attemptDelivery(request: SignedRequest, policy: TargetPolicy): Promise<AttemptOutcome> {
  const url = new URL(request.url);
  // The port is checked again: the allowed ports may have narrowed since registration.
  const port = portProblem(url, policy);
  if (port !== null) return failure(`refused: url ${port}`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), DELIVERY_TIMEOUT_MILLISECONDS);
  try {
    const addresses = await Promise.race([
      resolveTarget(url, policy),
      new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    ]);
    const client = url.protocol === 'https:' ? https : http;
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(request.body)),
      'user-agent': USER_AGENT,
      ...signatureHeaders(request),
    };
    const send = (agent: http.Agent | false) =>
      new Promise<AttemptOutcome & { staleSocket?: true }>((resolve) => {
        const outgoing = client.request(url, {
          method: 'POST',
          agent,
          lookup: pinnedLookup(addresses),
          signal: controller.signal,
          headers,
        });
        // Once an answer came, its status decides: a body cut short by the time limit changes nothing.
        let answered = false;
        outgoing.on('response', (response) => {
          answered = true;
          const status = response.statusCode ?? 0;
          const judged =
            status >= 200 && status < 300
              ? { succeeded: true, responseStatus: status, error: null }
              : status >= 300 && status < 400
                ? failure(`redirect ${status} not followed`, status)
                : failure(`answered ${status}`, status);
          // The first 4 KB of the body are kept for the delivery detail; the rest is read and dropped, so the
          // connection finishes. The timer still bounds it all: what came by then is what is kept.
          const chunks: Buffer[] = [];
          let kept = 0;
          let settled = false;
          const settle = () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ ...judged, responseBody: Buffer.concat(chunks).toString('utf8') });
          };
          response.on('data', (chunk: Buffer) => {
            if (kept >= RESPONSE_BODY_BYTES) return;
            const part = chunk.subarray(0, RESPONSE_BODY_BYTES - kept);
            chunks.push(part);
            kept += part.length;
          });
          response.on('end', settle);
          response.on('close', settle);
          response.on('error', settle);
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) => {
          if (answered) return;
          // A kept-alive socket the receiver had closed: nothing was answered, so the attempt is sent again.
          if (outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
            resolve({ ...failure(CONNECTION_FAILED, null, error.code), staleSocket: true });
            return;
          }
          clearTimeout(timer);
          if (controller.signal.aborted) {
            resolve(failure(`no answer within ${DELIVERY_TIMEOUT_MILLISECONDS / 1000} s`));
          } else {
            resolve(failure(CONNECTION_FAILED, null, error.code ?? error.message));
          }
        });
        outgoing.end(request.body);
      });
    let sent = await send(AGENTS[url.protocol === 'https:' ? 'https:' : 'http:']);
    if (sent.staleSocket) sent = await send(false);
    const { staleSocket: _, ...outcome } = sent;
    return { ...outcome, requestHeaders: headers };
  } catch (error) {
    clearTimeout(timer);
    if (error instanceof RefusedTarget) return failure(`refused: url ${error.message}`);
    if (controller.signal.aborted)
      return failure(`no answer within ${DELIVERY_TIMEOUT_MILLISECONDS / 1000} s`);
    return failure(CONNECTION_FAILED, null, error instanceof Error ? error.message : String(error));
  }
}
