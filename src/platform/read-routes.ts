import type { FastifyInstance } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { requireTenant } from './auth.ts';
import { IdParams } from './common.schemas.ts';
import { route } from './operation.ts';
import { ListOf, type Page } from './pagination.ts';
import type { Scope } from './scopes.ts';
import type { Tenant } from './tenant.ts';

/**
 * The two read operations every public resource has: `GET /v1/<things>` (a page, filtered by the query) and
 * `GET /v1/<things>/{id}` (one, or 404), both under one scope and tenant-scoped by the caller's key.
 */
export function readRoutes<Q extends TSchema, I extends TSchema>(
  app: FastifyInstance,
  spec: {
    url: string;
    tag: string;
    scope: Scope;
    item: I;
    querystring: Q;
    /** e.g. { one: 'employee', many: 'employees', article: 'an' } → listEmployees, getEmployee. */
    noun: { one: string; many: string; article?: 'a' | 'an' };
    listDescription?: string;
    list: (tenant: Tenant, query: Static<Q>) => Promise<Page<Static<I>>>;
    get: (tenant: Tenant, id: string) => Promise<Static<I>>;
  },
): void {
  const { one, many, article = 'a' } = spec.noun;
  const pascal = (words: string) =>
    words
      .split(/[\s-]+/)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('');
  route(
    app,
    {
      method: 'GET',
      url: spec.url,
      operationId: `list${pascal(many)}`,
      summary: `List ${many}`,
      ...(spec.listDescription ? { description: spec.listDescription } : {}),
      tag: spec.tag,
      scope: spec.scope,
      querystring: spec.querystring,
      responses: { 200: { description: `A page of ${many}.`, schema: ListOf(spec.item) } },
    },
    // A page of Static<I> is the static type of ListOf(I); the compiler cannot see that through the generic
    // (callers' list and get are checked against the item schema by this function's signature).
    async (request) => (await spec.list(requireTenant(request), request.query as Static<Q>)) as never,
  );
  route(
    app,
    {
      method: 'GET',
      url: `${spec.url}/:id`,
      operationId: `get${pascal(one)}`,
      summary: `Get ${article} ${one}`,
      tag: spec.tag,
      scope: spec.scope,
      params: IdParams,
      responses: { 200: { description: `The ${one}.`, schema: spec.item } },
    },
    async (request) => spec.get(requireTenant(request), request.params.id),
  );
}
