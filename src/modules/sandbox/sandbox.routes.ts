import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { EmitSampleEventBody, SampleEvent } from './sandbox.schemas.ts';
import { emitSampleEvent } from './sandbox.service.ts';

export function sandboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'POST',
      url: '/v1/sandbox/events',
      operationId: 'emitSampleEvent',
      summary: 'Send a sample event to the sandbox’s endpoints',
      description:
        'Test keys only (a live key gets 404). Records a sample event of `type`, with `data` naming the sandbox’s newest matching records where there are some, and queues it like a real one for the active endpoints subscribed to that type (every active endpoint for `ping`): signed, retried and listed in the deliveries.',
      tag: 'Webhooks',
      scope: 'webhooks:manage',
      body: EmitSampleEventBody,
      responses: { 202: { description: 'The event, queued.', schema: SampleEvent } },
    },
    async (request, reply) =>
      reply.code(202).send(await emitSampleEvent(deps, requireTenant(request), request.body.type)),
  );
}
