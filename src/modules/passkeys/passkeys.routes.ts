import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import type { Credential } from '../../platform/tenant.ts';
import { PasskeyLoginBody, PasskeyView, RegisterPasskeyBody, WebAuthnOptions } from './passkeys.schemas.ts';
import {
  type Audience,
  listPasskeys,
  loginOptions,
  type PasskeyOwner,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from './passkeys.service.ts';

/**
 * The passkey routes of a session surface (the portal for workers, the dashboard for administrators): list,
 * register and remove one's own passkeys, and sign in with one. The owner always comes from the session.
 */
export function passkeyRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  surface: {
    audience: Audience;
    prefix: string;
    operation: { tag: string; surface: 'dashboard' | 'portal' };
    idPrefix: 'portal' | 'dashboard';
    owner: (request: FastifyRequest) => Promise<PasskeyOwner>;
    credential: (request: FastifyRequest) => Credential;
    /** Opens the session a passkey sign-in earned; answers what the surface's login answers. */
    signIn: (
      request: FastifyRequest,
      reply: FastifyReply,
      response: Static<typeof PasskeyLoginBody>['response'],
    ) => Promise<unknown>;
    sessionSchema: Parameters<typeof route>[1]['responses'][number]['schema'];
  },
): void {
  const { prefix, operation, idPrefix } = surface;
  route(
    app,
    {
      ...operation,
      method: 'GET',
      url: `${prefix}/passkeys`,
      operationId: `${idPrefix}ListPasskeys`,
      summary: 'Your passkeys (removed ones are not listed)',
      scope: null,
      responses: {
        200: { description: 'The passkeys.', schema: Type.Object({ data: Type.Array(PasskeyView) }) },
      },
    },
    async (request) => ({ data: await listPasskeys(deps.db, await surface.owner(request)) }),
  );
  route(
    app,
    {
      ...operation,
      method: 'POST',
      url: `${prefix}/passkeys/registration-options`,
      operationId: `${idPrefix}PasskeyRegistrationOptions`,
      summary: 'Options to create a passkey (navigator.credentials.create); valid five minutes, once',
      scope: null,
      body: Type.Object({}, { additionalProperties: false }),
      responses: { 200: { description: 'The options.', schema: WebAuthnOptions } },
    },
    async (request) => registrationOptions(deps, await surface.owner(request), surface.audience),
  );
  route(
    app,
    {
      ...operation,
      method: 'POST',
      url: `${prefix}/passkeys`,
      operationId: `${idPrefix}RegisterPasskey`,
      summary: 'Register the passkey the browser created',
      scope: null,
      body: RegisterPasskeyBody,
      errors: ['conflict'],
      responses: { 201: { description: 'The passkey.', schema: PasskeyView } },
    },
    async (request, reply) => {
      const created = await registerPasskey(
        deps,
        await surface.owner(request),
        surface.audience,
        request.body,
        surface.credential(request),
      );
      return reply.code(201).send(created);
    },
  );
  route(
    app,
    {
      ...operation,
      method: 'DELETE',
      url: `${prefix}/passkeys/:id`,
      operationId: `${idPrefix}RemovePasskey`,
      summary:
        'Remove one of your passkeys (it stops signing in and signing; its key is kept for the record)',
      scope: null,
      params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      errors: ['conflict'],
      responses: { 204: { description: 'Removed.', schema: null } },
    },
    async (request, reply) => {
      await removePasskey(deps, await surface.owner(request), request.params.id, surface.credential(request));
      return reply.code(204).send();
    },
  );
  route(
    app,
    {
      ...operation,
      method: 'POST',
      url: `${prefix}/passkeys/login-options`,
      operationId: `${idPrefix}PasskeyLoginOptions`,
      summary: 'Options to sign in with a passkey (navigator.credentials.get); valid five minutes, once',
      scope: 'public',
      body: Type.Object({}, { additionalProperties: false }),
      responses: { 200: { description: 'The options.', schema: WebAuthnOptions } },
    },
    async () => loginOptions(deps, surface.audience),
  );
  route(
    app,
    {
      ...operation,
      method: 'POST',
      url: `${prefix}/passkeys/login`,
      operationId: `${idPrefix}PasskeyLogin`,
      summary: 'Sign in with a passkey; sets the session cookie (a password lockout does not apply)',
      scope: 'public',
      body: PasskeyLoginBody,
      responses: { 200: { description: 'The session.', schema: surface.sessionSchema } },
    },
    async (request, reply) => surface.signIn(request, reply, request.body.response),
  );
}
