import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Instant } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { formatInstant } from '../../time/clock.ts';
import { advanceFakeClock, syncFakeClock } from './clock.service.ts';

/** The operator's fake clock (JORNADA_FAKE_CLOCK=1 only): read it, move it. */
export function clockAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const ClockView = Type.Object({ now: Instant() });
  const fakeClock = deps.fakeClock;
  const requireFakeClock = () => {
    if (!fakeClock) throw notFound('Route');
    return fakeClock;
  };
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'GET',
      url: '/admin/v1/clock',
      operationId: 'adminGetClock',
      summary: "The service's clock (only with JORNADA_FAKE_CLOCK=1)",
      errors: ['not_found'],
      responses: { 200: { description: 'Now.', schema: ClockView } },
    },
    async () => {
      const clock = requireFakeClock();
      await syncFakeClock(deps.db, clock);
      return { now: formatInstant(clock.now()) };
    },
  );
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/clock/advance',
      operationId: 'adminAdvanceClock',
      summary: 'Move the fake clock forward (only with JORNADA_FAKE_CLOCK=1)',
      body: Type.Object(
        { seconds: Type.Number({ exclusiveMinimum: 0, maximum: 10 * 365 * 24 * 3600 }) },
        { additionalProperties: false },
      ),
      errors: ['not_found'],
      responses: { 200: { description: 'The new now.', schema: ClockView } },
    },
    async (request) => {
      const clock = requireFakeClock();
      await advanceFakeClock(deps.db, clock, request.body.seconds);
      return { now: formatInstant(clock.now()) };
    },
  );
}
