import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/**
 * Route validators and serializers compiled on first use, and in the background once the server is ready
 * (issue 42): compiling every route's Ajv validators and fast-json-stringify serializers at registration was most
 * of a start's CPU (a later `npm start` spent about half of its 5–7 s there). A request that comes before the
 * background has reached its route compiles that route's function itself, once.
 */

let holds = 0;
let held: Array<() => void> = [];

/**
 * Keeps the background warm-up from starting until the returned function is called: a first start seeds the demo
 * month right after the server is ready, and on two cores the warm-up's compiling slowed the seeding by a fifth.
 * Requests still compile what they need on first use meanwhile.
 */
export function holdCompilerWarmUp(): () => void {
  holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    if (holds > 0) return;
    const starts = held;
    held = [];
    for (const start of starts) start();
  };
}

/** A validator Fastify calls; it reads `errors` off the function after calling it. */
type Validator = ((data: unknown) => boolean | unknown) & { errors?: unknown };

/**
 * One app's compilers. With `warmUp`, what no request has compiled yet waits in the app's own list for the
 * background warm-up (warmWhenReady); without it (the tests' in-process apps, app.ts) nothing is listed, so a
 * process that builds many apps keeps none of their schemas alive.
 */
export function lazyCompilers(options: { warmUp: boolean }) {
  const waiting: Array<() => void> = [];

  /** The value `make` gives, made on the first call (or by the background warm-up), then kept. */
  function deferred<F>(make: () => F): () => F {
    let made: F | undefined;
    const compiled = () => {
      made ??= make();
      return made;
    };
    if (options.warmUp) waiting.push(compiled);
    return compiled;
  }

  return {
    /** A validator made on its first call. */
    validator<V extends Validator>(make: () => V): V {
      const compiled = deferred(make);
      const validate = ((data: unknown) => {
        const real = compiled();
        const result = real(data);
        validate.errors = real.errors;
        return result;
      }) as V;
      return validate;
    },

    /**
     * Fastify's own serializer builder (fast-json-stringify), each serializer made on its first use, and made once
     * per response schema: every operation answers its problems (400, 401, 403, 404, 409, 422, 429, 503…) with
     * the same Problem schema object, which Fastify hands over once per route and status; compiled each time,
     * those copies were most of the memory a warmed-up node held (issue 42). A serializer depends only on the
     * schema and the shared schemas and options this builder was made with, so routes with the same schema
     * object share one.
     */
    serializerBuilder() {
      const build = SerializerSelector();
      return (externalSchemas: unknown, serializerOpts: unknown) => {
        const compiler = build(externalSchemas as never, serializerOpts as never);
        const bySchema = new WeakMap<object, (data: unknown) => string>();
        return (route: Parameters<typeof compiler>[0]) => {
          const schema = route.schema as object;
          const known = bySchema.get(schema);
          if (known) return known;
          const compiled = deferred(() => compiler(route));
          const serialize = (data: unknown) => compiled()(data as never);
          bySchema.set(schema, serialize);
          return serialize;
        };
      };
    },

    /** Compiles what no request has needed yet, a little at a time, after the app is ready (and not held). */
    warmWhenReady(app: FastifyInstance): void {
      if (!options.warmUp) return;
      app.addHook('onReady', async () => {
        let next = 0;
        const slice = () => {
          const started = performance.now();
          while (next < waiting.length && performance.now() - started < 10) {
            try {
              (waiting[next] as () => void)();
            } catch (error) {
              app.log.error({ err: error }, 'a route schema does not compile');
            }
            next += 1;
          }
          if (next < waiting.length) setTimeout(slice, 1).unref();
          else waiting.length = 0;
        };
        const start = () => setTimeout(slice, 1).unref();
        if (holds > 0) held.push(start);
        else start();
      });
    },
  };
}
