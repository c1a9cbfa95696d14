import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { lazyCompilers } from './lazy-compilers.ts';

const common: Options = {
  allErrors: true,
  removeAdditional: false, // unknown fields are an error (422), never silently dropped
  useDefaults: true,
  strict: false,
};

/** An Ajv that knows the string formats (date-time, uuid, email …) of the schemas. */
export function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  // RFC 3339 as Temporal reads it: at most nine fractional digits (a tenth made Temporal throw, a 500 before
  // issue 35), and an instant Temporal can represent.
  ajv.addFormat('date-time', { type: 'string', validate: isInstantText });
  return ajv;
}

const DATE_TIME = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[Zz]|[+-]\d\d:\d\d)$/;

/** Whether a text is an RFC 3339 date-time with an offset that Temporal reads as an instant. */
export function isInstantText(text: string): boolean {
  if (!DATE_TIME.test(text)) return false;
  try {
    Temporal.Instant.from(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON bodies are validated as sent (a string is not an integer). Query strings and path parameters are text
 * on the wire, so those validators coerce "25" to 25.
 */
export function registerValidators(
  app: FastifyInstance,
  lazyValidator: ReturnType<typeof lazyCompilers>['validator'],
): void {
  const body = withFormats(new Ajv({ ...common, coerceTypes: false }));
  const text = withFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? body : text;
    // Compiled on first use or in the background after start (lazy-compilers.ts, issue 42).
    return lazyValidator(() => ajv.compile(schema as FastifySchema & object));
  });
}
