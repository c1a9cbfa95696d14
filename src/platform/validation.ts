import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

const common: Options = {
  allErrors: true,
  removeAdditional: false, // unknown fields are an error (422), never silently dropped
  useDefaults: true,
  strict: false,
};

/** An Ajv that knows the string formats (date-time, uuid, email …) of the schemas. */
export function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}

/**
 * JSON bodies are validated as sent (a string is not an integer). Query strings and path parameters are text
 * on the wire, so those validators coerce "25" to 25.
 */
export function registerValidators(app: FastifyInstance): void {
  const body = withFormats(new Ajv({ ...common, coerceTypes: false }));
  const text = withFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? body : text;
    return ajv.compile(schema as FastifySchema & object);
  });
}
