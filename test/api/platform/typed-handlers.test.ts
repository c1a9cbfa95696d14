import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { route } from '../../../src/platform/operation.ts';

/**
 * A handler is typed by its success response schema: returning another shape does not compile. The
 * `@ts-expect-error` lines below are checked by `npm run check` (tsc over the tests): if the wrong handler
 * compiled, the directive itself would be the error.
 */
const Thing = Type.Object({ id: Type.String(), count: Type.Integer() }, { additionalProperties: false });
const spec = {
  method: 'GET' as const,
  url: '/things/one',
  operationId: 'getThing',
  summary: 'A thing',
  tag: 'Things',
  scope: 'public' as const,
  responses: { 200: { description: 'The thing.', schema: Thing } },
};

describe('handlers typed by their response schema', () => {
  it('accepts the schema’s shape and refuses another at compile time', async () => {
    const app = Fastify();
    route(app, spec, async () => ({ id: 'a', count: 1 }));
    // @ts-expect-error count must be a number
    route(app, { ...spec, url: '/things/two', operationId: 'two' }, async () => ({ id: 'a', count: '1' }));
    // @ts-expect-error id is required
    route(app, { ...spec, url: '/things/three', operationId: 'three' }, async () => ({ count: 1 }));
    // A reply sent by the handler itself (another status, a file) is always allowed.
    route(app, { ...spec, url: '/things/four', operationId: 'four' }, async (_request, reply) =>
      reply.code(200).send({ id: 'b', count: 2 }),
    );
    await app.ready();
    expect((await app.inject({ url: '/things/one' })).json()).toEqual({ id: 'a', count: 1 });
    await app.close();
  });
});
