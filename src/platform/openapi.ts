import { isDeepStrictEqual } from 'node:util';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { COMPONENT_KEYWORD, USE_DESCRIPTION } from './common.schemas.ts';
import { bodyIsOptional, localUrl } from './operation.ts';
import { SCOPE_DESCRIPTIONS, SCOPES } from './scopes.ts';
import { lazyStaticEntity, sendStaticEntity } from './static-entity.ts';

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

const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any string of 1 to 255 characters, unique per intended operation. A retry with the same key, method, path and body replays the stored answer (with `Idempotent-Replayed: true`) for 24 hours; the same key with another request is 409 `idempotency_conflict`.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * Moves every schema named with `named()` to components.schemas and puts a `$ref` in its place, depth first, so
 * that a named schema inside another is a reference there too. Two different schemas under one name are a bug.
 */
function extractComponents(document: OpenApiDocument): void {
  document.components ??= {};
  const components = document.components as Json & { schemas?: Record<string, unknown> };
  const schemas: Record<string, unknown> = { ...(components.schemas ?? {}) };
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Json).map(([key, item]) => [key, visit(item)] as const);
    const object = Object.fromEntries(entries.filter(([key]) => key !== COMPONENT_KEYWORD));
    const name = (value as Json)[COMPONENT_KEYWORD];
    if (typeof name !== 'string') return object;
    // A schema whose description says what it is *for* at each use (`usedAs`) keeps it beside the $ref.
    const { description, [USE_DESCRIPTION]: perUse, ...shape } = object;
    const component = perUse === true ? shape : object;
    const known = schemas[name];
    if (known !== undefined && !isDeepStrictEqual(known, component)) {
      throw new Error(`two different schemas are named ${name}`);
    }
    schemas[name] = component;
    return perUse === true && description !== undefined
      ? { $ref: `#/components/schemas/${name}`, description }
      : { $ref: `#/components/schemas/${name}` };
  };
  document.paths = visit(document.paths ?? {}) as OpenApiDocument['paths'];
  if (document.webhooks) document.webhooks = visit(document.webhooks);
  if (components.responses) components.responses = visit(components.responses);
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A problem response is the same wherever its status and headers are: it is described once under
 * components.responses (`Problem404`, or `Problem404Unmetered` where no rate-limit headers apply) and referred to.
 */
function sharedProblemResponse(components: Json, status: string, response: Json): Json | null {
  const content = response.content as Json | undefined;
  if (!content || Object.keys(content).join() !== 'application/problem+json') return null;
  const metered = 'X-RateLimit-Limit' in ((response.headers as Json | undefined) ?? {});
  const name = `Problem${status}${metered ? '' : 'Unmetered'}`;
  components.responses ??= {};
  const responses = components.responses as Record<string, Json>;
  const known = responses[name];
  if (known !== undefined && !isDeepStrictEqual(known, response)) {
    throw new Error(`two different ${status} problem responses would share the name ${name}`);
  }
  responses[name] = response;
  return { $ref: `#/components/responses/${name}` };
}

/**
 * A success response that several operations give identically (the absence after a decision, a 204 with the
 * rate-limit headers) is stated once under components.responses, named after its schema and status
 * (`Absence200`, `NoContent204`), and referred to. Run after the examples are in place, so that equal means equal.
 */
function shareIdenticalResponses(document: OpenApiDocument): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const groups = new Map<string, Array<{ responses: Json; status: string }>>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const responses = operation.responses as Json | undefined;
      for (const [status, response] of Object.entries(responses ?? {})) {
        if (!status.startsWith('2') || (response as Json).$ref !== undefined) continue;
        const key = `${status} ${JSON.stringify(response)}`;
        groups.set(key, [...(groups.get(key) ?? []), { responses: responses as Json, status }]);
      }
    }
  }
  document.components ??= {};
  const components = document.components as Json;
  for (const uses of groups.values()) {
    if (uses.length < 2) continue;
    const first = uses[0] as { responses: Json; status: string };
    const response = first.responses[first.status] as Json;
    const schema = Object.values((response.content as Record<string, Json> | undefined) ?? {})[0]?.schema as
      | Json
      | undefined;
    const base = typeof schema?.$ref === 'string' ? (schema.$ref.split('/').at(-1) as string) : 'NoContent';
    components.responses ??= {};
    const shared = components.responses as Record<string, Json>;
    let name = `${base}${first.status}`;
    for (
      let index = 2;
      shared[name] !== undefined && !isDeepStrictEqual(shared[name], response);
      index += 1
    ) {
      name = `${base}${first.status}_${index}`;
    }
    shared[name] = response;
    for (const use of uses) use.responses[use.status] = { $ref: `#/components/responses/${name}` };
  }
}

/**
 * A request body that several operations declare identically (the actions that take `{}` or nothing) is stated
 * once in `components.requestBodies`, named after its schema, and referred to (issue 41: room in the size budget,
 * docs/decisions/0027-openapi-size-budget.md).
 */
function shareIdenticalRequestBodies(document: OpenApiDocument): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const groups = new Map<string, Json[]>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const body = operation.requestBody as Json | undefined;
      if (!body || body.$ref !== undefined) continue;
      const key = JSON.stringify(body);
      groups.set(key, [...(groups.get(key) ?? []), operation]);
    }
  }
  document.components ??= {};
  const components = document.components as Json & { requestBodies?: Record<string, Json> };
  for (const uses of groups.values()) {
    if (uses.length < 2) continue;
    const body = (uses[0] as Json).requestBody as Json;
    const schema = (body.content as Record<string, { schema?: Json }> | undefined)?.['application/json']
      ?.schema;
    if (typeof schema?.$ref !== 'string') continue;
    const name = schema.$ref.split('/').at(-1) as string;
    components.requestBodies ??= {};
    if (components.requestBodies[name] !== undefined) continue;
    components.requestBodies[name] = body;
    for (const operation of uses) operation.requestBody = { $ref: `#/components/requestBodies/${name}` };
  }
}

/**
 * A query parameter that several operations declare identically (limit, cursor, updated_since, …) is stated
 * once in `components.parameters` (named after it in PascalCase) and referred to.
 */
function shareQueryParameters(document: OpenApiDocument): void {
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    METHODS.map((method) => item[method] as (Json & { parameters?: Json[] }) | undefined).filter(
      (operation): operation is Json & { parameters?: Json[] } => operation !== undefined,
    ),
  );
  const seen = new Map<string, { parameter: Json; count: number }>();
  for (const operation of operations) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'query') continue;
      const name = String(parameter.name);
      const known = seen.get(name);
      if (!known) seen.set(name, { parameter, count: 1 });
      else if (isDeepStrictEqual(known.parameter, parameter)) known.count += 1;
    }
  }
  document.components ??= {};
  const components = document.components as Json;
  for (const operation of operations) {
    operation.parameters = operation.parameters?.map((parameter) => {
      const shared = parameter.in === 'query' ? seen.get(String(parameter.name)) : undefined;
      if (!shared || shared.count < 2 || !isDeepStrictEqual(shared.parameter, parameter)) return parameter;
      const key = String(parameter.name).replace(/(^|_)(\w)/g, (_match, _sep, letter: string) =>
        letter.toUpperCase(),
      );
      sharedParameters(components)[key] = shared.parameter;
      return { $ref: `#/components/parameters/${key}` };
    });
  }
}

/** The document's `components.parameters`, made on first use. */
function sharedParameters(components: Json): Json {
  components.parameters ??= {};
  return components.parameters as Json;
}

/**
 * States `type: string` on every enumeration of strings that lacks it (TypeBox's Enum writes `enum` alone): a
 * generator or a renderer reads a bare `enum` as any type (issue 41: 37 of them were shown as "any" and typed
 * `unknown`).
 */
function typeStringEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) typeStringEnums(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json & { enum?: unknown; type?: unknown };
  if (
    Array.isArray(schema.enum) &&
    schema.type === undefined &&
    schema.enum.every((value) => typeof value === 'string')
  ) {
    schema.type = 'string';
  }
  for (const value of Object.values(schema)) typeStringEnums(value);
}

/**
 * Post-processing that is the same for every operation, kept here rather than repeated in each route:
 * rate-limit headers on every 2xx/4xx but 401, Retry-After on 429, deprecation of parameters and headers, one
 * shared `{id}` path parameter and Idempotency-Key header.
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
      // The scope is stated by the security requirement and in the description; the marker itself goes.
      const scope = operation['x-required-scope'];
      delete operation['x-required-scope'];
      if (surface === 'public' && scope !== undefined) {
        operation.description = [
          operation.description,
          `Scope: ${scope === null ? 'any valid key' : `\`${String(scope)}\``}.`,
        ]
          .filter(Boolean)
          .join('\n\n');
      }
      if (operation['x-idempotency-key'] === true) {
        delete operation['x-idempotency-key'];
        operation.parameters = [
          ...(operation.parameters ?? []),
          { $ref: '#/components/parameters/IdempotencyKey' },
        ];
        sharedParameters(components).IdempotencyKey = IDEMPOTENCY_KEY;
      }
      // The `{id}` of every path is one uuid parameter, stated once.
      operation.parameters = operation.parameters?.map((parameter) =>
        parameter.in === 'path' && parameter.name === 'id' && (parameter.schema as Json)?.format === 'uuid'
          ? { $ref: '#/components/parameters/Id' }
          : parameter,
      );
      if (operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/Id')) {
        sharedParameters(components).Id = {
          in: 'path',
          name: 'id',
          required: true,
          description: 'The resource’s id.',
          schema: { type: 'string', format: 'uuid', maxLength: 36 },
        };
      }
      // A body the server takes as `{}` when left out (operation.ts, bodyIsOptional) is optional here too
      // (issue 41: six operations said otherwise); `required` is left out, false being its default.
      const body = operation.requestBody as
        | (Json & { content?: Record<string, { schema?: { required?: string[] } }> })
        | undefined;
      if (body && bodyIsOptional(body.content?.['application/json']?.schema)) delete body.required;
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
        const shared = sharedProblemResponse(components, status, response);
        if (shared && operation.responses) operation.responses[status] = shared;
      }
    }
  }
  return document;
}

/**
 * States each named schema's example once (the list components' derived from their item's): in
 * `components.examples`, referred to from every request body and response whose schema is that component, or,
 * for a schema no operation shows directly, on the schema itself (`examples`).
 */
function addExamples(document: OpenApiDocument, examples: Record<string, unknown>): void {
  const components = document.components as Json & {
    schemas?: Record<string, Json>;
    responses?: Record<string, Json>;
  };
  const schemas = components.schemas ?? {};
  const exampleOf = (name: string): unknown => {
    if (name in examples) return examples[name];
    const item = name.endsWith('List') ? examples[name.slice(0, -'List'.length)] : undefined;
    return item === undefined ? undefined : { data: [item], meta: { next_cursor: null, has_more: false } };
  };
  // Examples an operation shows go to components.examples, referred to from each media type; the others (of
  // schemas used only inside another) stay on their schema (`examples`): no component is left unused.
  const shared: Record<string, Json> = {};
  const annotate = (content: Json | undefined) => {
    for (const media of Object.values(content ?? {}) as Json[]) {
      const ref = (media.schema as Json | undefined)?.$ref;
      const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
      const example = name === undefined ? undefined : exampleOf(name);
      if (name === undefined || example === undefined) continue;
      shared[name] = { value: example };
      media.examples = { [name]: { $ref: `#/components/examples/${name}` } };
    }
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as
        | (Json & { requestBody?: Json; responses?: Record<string, Json> })
        | undefined;
      if (!operation) continue;
      annotate(operation.requestBody?.content as Json | undefined);
      for (const response of Object.values(operation.responses ?? {}))
        annotate(response.content as Json | undefined);
    }
  }
  for (const response of Object.values(components.responses ?? {}))
    annotate(response.content as Json | undefined);
  components.examples = shared;
  for (const [name, schema] of Object.entries(schemas)) {
    const example = exampleOf(name);
    if (example !== undefined && !(name in shared)) schema.examples = [example];
  }
}

export type OpenApiOptions = {
  surface: 'public' | 'admin';
  title: string;
  description: string;
  routePrefix: string;
  /** OpenAPI 3.1 `webhooks`: the requests the service sends (public surface). */
  webhooks?: Record<string, unknown>;
  /** Parameters the webhooks refer to (`#/components/parameters/…`), stated once. */
  webhookParameters?: Record<string, unknown>;
  /** Responses the webhooks refer to (`#/components/responses/…`), stated once. */
  webhookResponses?: Record<string, unknown>;
  /** The document's tags, in the order a reader should meet them, with what each groups. */
  tags: Array<{ name: string; description: string }>;
  /** An example per named schema (modules/openapi-examples.ts). */
  examples?: Record<string, unknown>;
};

/** Registers @fastify/swagger for the routes of the calling (encapsulated) plugin, served at routePrefix. */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }> =
    options.surface === 'public'
      ? {
          apiKey: {
            type: 'http' as const,
            scheme: 'bearer',
            description: [
              'An API key, `jrn_live_…` or `jrn_test_…`, sent as `Authorization: Bearer <key>`. The scopes listed on an operation are the ones the key must hold:',
              '',
              ...SCOPES.map((scope) => `- \`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`),
            ].join('\n'),
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
      tags: options.tags,
      components: { securitySchemes },
    },
    hideUntagged: false,
    transformObject: (document) => {
      const decorated = decorate(
        ('openapiObject' in document ? document.openapiObject : {}) as OpenApiDocument,
        options.surface,
      );
      shareQueryParameters(decorated);
      if (options.webhooks) decorated.webhooks = options.webhooks;
      if (options.webhookParameters) {
        const components = decorated.components as Json & { parameters?: Json };
        components.parameters = { ...(components.parameters ?? {}), ...options.webhookParameters };
      }
      if (options.webhookResponses) {
        const components = decorated.components as Json & { responses?: Json };
        components.responses = { ...(components.responses ?? {}), ...options.webhookResponses };
      }
      extractComponents(decorated);
      typeStringEnums(decorated);
      if (options.examples) addExamples(decorated, options.examples);
      shareIdenticalResponses(decorated);
      shareIdenticalRequestBodies(decorated);
      return decorated;
    },
  });
  // The description is the same until the process restarts: serialized and compressed once, with an ETag and a
  // lifetime of five minutes (issue 41: it was 169 KB a request, uncompressed and no-store).
  const description = lazyStaticEntity('application/json; charset=utf-8', () =>
    JSON.stringify(app.swagger()),
  );
  app.get(
    localUrl(app, options.routePrefix),
    { schema: { hide: true }, config: { access: { scope: 'public' } } },
    async (request, reply) => sendStaticEntity(request, reply, await description(), 'public, max-age=300'),
  );
}
