import { Operations } from './operations.ts';
import { webhooks } from './webhooks.ts';

/**
 * A client of the Jornada public API v1.
 *
 * ```ts
 * const jornada = new Jornada({ apiKey: process.env.JORNADA_API_KEY, baseUrl: 'https://jornada.example.com' });
 * for await (const employee of jornada.listEmployees({ status: 'active' })) console.log(employee.email);
 * ```
 */
export class Jornada extends Operations {
  /** Verification of webhook deliveries (also usable without a client: `import { webhooks }`). */
  readonly webhooks = webhooks;
}

export type { components, operations, paths } from './schema.ts';
export {
  type ErrorCode,
  type ErrorDetails,
  type ErrorsOf,
  type IdempotentOptions,
  type Item,
  JornadaConnectionError,
  JornadaError,
  type JornadaOptions,
  Listing,
  type Problem,
  type ReportFile,
  type RequestOptions,
  type ResponseInfo,
  SDK_VERSION,
  type WithResponse,
} from './transport.ts';
export type * from './types.ts';
export {
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
  webhooks,
} from './webhooks.ts';
