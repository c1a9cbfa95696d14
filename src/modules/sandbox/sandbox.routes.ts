import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { EmitSampleEventBody, EventFeed, ListenQuery, SampleEvent } from './sandbox.schemas.ts';
import { emitSampleEvent, listenEvents } from './sandbox.service.ts';

export function sandboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'POST',
      url: '/v1/sandbox/events',
      operationId: 'emitSampleEvent',
      summary: 'Send a sample event to the sandbox’s endpoints',
      description:
        'Test keys only (404 for a live key). Records a sample event of `type` (its `data` names the sandbox’s newest matching records, if any) and delivers it like a real one to the active endpoints subscribed to it (all of them for `ping`).',
      tag: 'Webhooks',
      scope: 'webhooks:manage',
      body: EmitSampleEventBody,
      responses: { 202: { description: 'The event, queued.', schema: SampleEvent } },
      // A live key's answer (issue 41: it was undeclared).
      errors: ['not_found'],
    },
    async (request, reply) =>
      reply.code(202).send(await emitSampleEvent(deps, requireTenant(request), request.body.type)),
  );
  route(
    app,
    {
      method: 'GET',
      url: '/v1/sandbox/events',
      operationId: 'listenSandboxEvents',
      summary: 'Wait for the sandbox’s next events (what `jornada listen` forwards)',
      description:
        'Test keys only (404 for a live key). The sandbox’s events after `after`, oldest first, at most 100; with none yet, the answer waits up to `wait` seconds (long polling). Start with `after=latest`, then pass `next_after` back. No event is skipped. Not counted in the rate limit nor the quota: 60 a minute per key of its own.',
      tag: 'Webhooks',
      scope: 'webhooks:manage',
      querystring: ListenQuery,
      // Its own budget (issue 41): a listener left running spends neither the key's rate limit nor the quota.
      budget: 'listen',
      responses: { 200: { description: 'The events, and the cursor to go on from.', schema: EventFeed } },
      errors: ['not_found'],
    },
    async (request, reply) => {
      // A client that goes away (the response closes before it was sent) stops the wait.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return await listenEvents(deps, requireTenant(request), request.query, gone.signal);
    },
  );
}
