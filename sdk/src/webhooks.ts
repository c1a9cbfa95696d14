import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks as WebhookOperations } from './schema.ts';

/** An event as delivered to a webhook endpoint: one member per event type, told apart by `type`. */
export type WebhookEvent = {
  [Type in keyof WebhookOperations]: WebhookOperations[Type]['post']['requestBody']['content']['application/json'];
}[keyof WebhookOperations];

export type WebhookEventType = WebhookEvent['type'];

/** Request headers as any server hands them: Fetch `Headers`, or Node's `IncomingHttpHeaders`, or a record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> =
    typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function'
      ? (headers as Headers).entries()
      : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * against the endpoint's secret, and that its timestamp is within 5 minutes of now; returns the event.
 * `body` must be the raw body as received, before any JSON parsing. Throws `WebhookVerificationError` otherwise.
 */
function verify(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(payload, headerRecord(headers)) as WebhookEvent;
}

export const webhooks = { verify };
export { WebhookVerificationError };
