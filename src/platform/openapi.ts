import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { localUrl } from './operation.ts';

type Json = Record<string, unknown>;
type OpenApiDocument = Json & { paths?: Record<string, Record<string, Json>>; components?: Json };

const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'X-RateLimit-Limit': { description: "The key's per-minute limit.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) at which the window resets.',
    schema: { type: 'integer' },
  },
  'X-Service-Quota-Remaining': {
    description: 'Requests left in the monthly quota.',
    schema: { type: 'integer' },
  },
};

const DEPRECATION_HEADERS: Record<string, Json> = {
  Deprecation: {
    description: 'Sent when the deprecated updated_since is used: @<unix time> of the deprecation.',
    schema: { type: 'string' },
  },
  Sunset: { description: 'Removal date of the deprecated parameter (RFC 8594).', schema: { type: 'string' } },
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Post-processing that is the same for every operation, kept here rather than repeated in each route:
 * rate-limit headers on every 2xx/4xx but 401, Retry-After on 429, deprecation of parameters and headers.
 */
function decorate(document: OpenApiDocument, surface: 'public' | 'admin'): OpenApiDocument {
  document.components ??= {};
  const components = document.components as Json & { headers?: Json };
  if (surface === 'public') {
    components.headers = {
      ...RATE_LIMIT_HEADERS,
      'Retry-After': {
        description: 'Seconds until the rate-limit window resets.',
        schema: { type: 'integer' },
      },
    };
  }
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as
        | (Json & { responses?: Record<string, Json>; parameters?: Json[] })
        | undefined;
      if (!operation) continue;
      const scope = operation['x-required-scope'];
      if (surface === 'public' && scope !== undefined) {
        operation.description = [
          operation.description,
          `Required scope: ${scope === null ? 'any valid key' : `\`${String(scope)}\``}.`,
        ]
          .filter(Boolean)
          .join('\n\n');
      }
      let deprecatedParameter = false;
      for (const parameter of operation.parameters ?? []) {
        const schema = parameter.schema as Json | undefined;
        if (schema?.deprecated) {
          parameter.deprecated = true;
          deprecatedParameter = true;
        }
      }
      const authenticated = Array.isArray(operation.security) && operation.security.length > 0;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = Number(status);
        const headers: Json = { ...((response.headers as Json | undefined) ?? {}) };
        if (surface === 'public' && authenticated && path.startsWith('/v1') && code !== 401 && code < 500) {
          for (const name of Object.keys(RATE_LIMIT_HEADERS))
            headers[name] = { $ref: `#/components/headers/${name}` };
        }
        if (code === 429) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if (deprecatedParameter && code >= 200 && code < 300) {
          // Declared as components only once an operation uses them (an unused component is a lint warning).
          components.headers = { ...components.headers, ...DEPRECATION_HEADERS };
          for (const name of Object.keys(DEPRECATION_HEADERS))
            headers[name] = { $ref: `#/components/headers/${name}` };
        }
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
    }
  }
  return document;
}

export type OpenApiOptions = {
  surface: 'public' | 'admin';
  title: string;
  description: string;
  routePrefix: string;
  /** OpenAPI 3.1 `webhooks`: the requests the service sends (public surface). */
  webhooks?: Record<string, unknown>;
};

/** Registers @fastify/swagger for the routes of the calling (encapsulated) plugin, served at routePrefix. */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }> =
    options.surface === 'public'
      ? {
          apiKey: {
            type: 'http' as const,
            scheme: 'bearer',
            description:
              'An API key, `jrn_live_…` or `jrn_test_…`, sent as `Authorization: Bearer <key>`. The scopes listed on an operation are the ones the key must hold.',
          },
        }
      : {
          adminToken: {
            type: 'http' as const,
            scheme: 'bearer',
            description: 'The operator token of this deployment (JORNADA_ADMIN_TOKEN).',
          },
        };
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        version: '1.0.0',
        description: options.description,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: '/', description: 'This Jornada deployment' }],
      components: { securitySchemes },
    },
    hideUntagged: false,
    transformObject: (document) => {
      const decorated = decorate(
        ('openapiObject' in document ? document.openapiObject : {}) as OpenApiDocument,
        options.surface,
      );
      if (options.webhooks) decorated.webhooks = options.webhooks;
      return decorated;
    },
  });
  app.get(
    localUrl(app, options.routePrefix),
    { schema: { hide: true }, config: { access: { scope: 'public' } } },
    async () => app.swagger(),
  );
}
