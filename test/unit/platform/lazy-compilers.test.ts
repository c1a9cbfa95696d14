import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyCompilers } from '../../../src/platform/lazy-compilers.ts';

/**
 * Response serializers are made once per schema object (issue 42): Fastify asks for one per route and status, and
 * every operation's problems share one schema, so the copies were most of a warmed-up node's memory.
 */
describe('the response serializers', () => {
  const problem = {
    type: 'object',
    properties: { code: { type: 'string' }, status: { type: 'integer' } },
    additionalProperties: false,
  };
  const other = { type: 'object', properties: { id: { type: 'string' } } };

  it('share one serializer between routes and statuses answering with the same schema', () => {
    const compiler = lazyCompilers({ warmUp: false }).serializerBuilder()({}, {});
    const first = compiler({ schema: problem, method: 'GET', url: '/a', httpStatus: '404' } as never);
    const second = compiler({ schema: problem, method: 'POST', url: '/b', httpStatus: '422' } as never);
    const third = compiler({ schema: other, method: 'GET', url: '/a', httpStatus: '200' } as never);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    // Still the schema's serializer: fields it does not name are left out.
    expect(JSON.parse(first({ code: 'not_found', status: 404, secret: 'x' } as never))).toEqual({
      code: 'not_found',
      status: 404,
    });
    expect(JSON.parse(third({ id: 'e1', secret: 'x' } as never))).toEqual({ id: 'e1' });
  });

  it('keeps apart the serializers of builders made with other shared schemas or options', () => {
    const build = lazyCompilers({ warmUp: false }).serializerBuilder();
    const a = build({}, {})({ schema: problem } as never);
    const b = build({}, { rounding: 'floor' })({ schema: problem } as never);
    expect(b).not.toBe(a);
  });

  it('are compiled in the background once the app is ready, and only by an app that warms up', async () => {
    const made = { warm: 0, cold: 0 };
    const apps = [];
    for (const kind of ['warm', 'cold'] as const) {
      const compilers = lazyCompilers({ warmUp: kind === 'warm' });
      compilers.validator(() => {
        made[kind] += 1;
        return (() => true) as never;
      });
      const app = Fastify();
      compilers.warmWhenReady(app);
      await app.ready();
      apps.push(app);
    }
    await expect.poll(() => made.warm).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(made.cold).toBe(0);
    for (const app of apps) await app.close();
  });
});
